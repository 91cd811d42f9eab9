package io.kftrainer.plugins.torch;

import static io.kftrainer.plugins.torch.TorchFixtures.RANK_FROM_INDEX;
import static io.kftrainer.plugins.torch.TorchFixtures.container;
import static io.kftrainer.plugins.torch.TorchFixtures.env;
import static io.kftrainer.plugins.torch.TorchFixtures.requests;
import static io.kftrainer.plugins.torch.TorchFixtures.unchanged;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.testkit.TestPipeline;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** torchtune TrainJobs: the completed command, and the recipe and model choices behind it. */
class TorchTuneTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new TorchPlugin());
  private static final List<String> RUNTIME_PATHS = List.of("output_dir=/workspace/model/llama3_3/70B",
      "tokenizer.path=/workspace/model/original/tokenizer.model", "checkpointer.checkpoint_dir=/workspace/model");

  @ParameterizedTest(name = "{0}")
  @MethodSource("commandCases")
  void completesTheCommandInsteadOfSettingTheMaster(String name, String runtimeRef, Consumer<TrainJob> change,
      List<String> expectedCommandTail, String expectedProcs) {
    TrainJob trainJob = TorchFixtures.trainJob(tj -> {
      tj.getMetadata().setName("test-job");
      tj.getSpec().getRuntimeRef().setName(runtimeRef);
      tj.getSpec().getTrainer().setCommand(List.of("tune", "run"));
      tj.getSpec().getTrainer().setNumNodes(1);
      tj.getSpec().getTrainer().setResourcesPerNode(requests("cpu", "1", "memory", "4Gi"));
      change.accept(tj);
    });

    RuntimeInfo info = PIPELINE.build(TorchFixtures.runtime("torch/torchtune-runtime.yaml", unchanged()), trainJob)
        .info();

    ContainerInfo node = container(info, "node", "node");
    List<String> expectedCommand = new ArrayList<>(List.of("tune", "run"));
    expectedCommand.addAll(expectedCommandTail);
    expectedCommand.addAll(RUNTIME_PATHS);
    assertThat(node.command()).containsExactlyElementsOf(expectedCommand);
    assertThat(env(node)).containsExactly("PET_NNODES=" + info.podSet("node").orElseThrow().count(),
        "PET_NPROC_PER_NODE=" + expectedProcs, "PET_NODE_RANK" + RANK_FROM_INDEX);
    assertThat(node.ports()).hasSize(1);
  }

  static Stream<Arguments> commandCases() {
    return Stream.of(
        Arguments.of("multi-node full fine-tuning gets the rendezvous endpoint and the multinode config",
            "torchtune-llama3.3-70b",
            trainJob(tj -> {
              tj.getSpec().getTrainer().setNumNodes(30);
              tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString(3));
            }),
            List.of("--rdzv_endpoint=test-job-node-0-0.test-job:29500", "full_finetune_distributed", "--config",
                "llama3_3/70B_full_multinode"),
            "3"),
        Arguments.of("one CPU node runs the single-device recipe without rendezvous", "torchtune-llama3.2-1b",
            unchanged(),
            List.of("full_finetune_single_device", "--config", "llama3_2/1B_full_single_device"),
            "1"),
        Arguments.of("one GPU runs the single-device recipe and keeps nproc auto", "torchtune-llama3.2-1b",
            trainJob(tj -> tj.getSpec().getTrainer().setResourcesPerNode(requests("example.com/gpu", "1"))),
            List.of("full_finetune_single_device", "--config", "llama3_2/1B_full_single_device"),
            "auto"),
        Arguments.of("several GPUs on one node run the distributed recipe with rendezvous", "torchtune-llama3.2-1b",
            trainJob(tj -> tj.getSpec().getTrainer().setResourcesPerNode(requests("example.com/gpu", "2"))),
            List.of("--rdzv_endpoint=test-job-node-0-0.test-job:29500", "full_finetune_distributed", "--config",
                "llama3_2/1B_full"),
            "auto"),
        Arguments.of("LoRA on several GPUs runs the distributed LoRA recipe", "torchtune-llama3.2-1b",
            trainJob(tj -> {
              tj.getSpec().getTrainer().setResourcesPerNode(requests("cpu", "1", "example.com/gpu", "2"));
              tj.getSpec().getTrainer().setArgs(List.of("model.lora_attn_modules=['q_proj','v_proj']"));
            }),
            List.of("--rdzv_endpoint=test-job-node-0-0.test-job:29500", "lora_finetune_distributed", "--config",
                "llama3_2/1B_lora"),
            "auto"),
        Arguments.of("QLoRA on one GPU runs the single-device LoRA recipe with the QLoRA config",
            "torchtune-llama3.2-1b",
            trainJob(tj -> {
              tj.getSpec().getTrainer().setResourcesPerNode(requests("cpu", "1", "example.com/gpu", "1"));
              tj.getSpec().getTrainer().setArgs(List.of("model.quantize_base=True"));
            }),
            List.of("lora_finetune_single_device", "--config", "llama3_2/1B_qlora_single_device"),
            "auto"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recipeCases")
  void selectsRecipeAndConfig(String name, int numNodes, IntOrString procs, int gpus, List<String> args,
      String expectedRecipe, String expectedConfig) {
    TuneRecipe recipe = TuneRecipe.select(numNodes, procs, gpus, args, TuneModel.LLAMA3_2_1B);

    assertThat(recipe).isEqualTo(new TuneRecipe(expectedRecipe, expectedConfig));
  }

  static Stream<Arguments> recipeCases() {
    IntOrString auto = new IntOrString("auto");
    List<String> lora = List.of("model.lora_attn_modules=['q_proj']");
    List<String> qlora = List.of("model.quantize_base=True");
    return Stream.of(
        Arguments.of("single device full", 1, auto, 1, List.of(), "full_finetune_single_device",
            "llama3_2/1B_full_single_device"),
        Arguments.of("single device lora", 1, auto, 1, lora, "lora_finetune_single_device",
            "llama3_2/1B_lora_single_device"),
        Arguments.of("single device qlora", 1, auto, 1, qlora, "lora_finetune_single_device",
            "llama3_2/1B_qlora_single_device"),
        Arguments.of("single node multi-gpu full", 1, auto, 4, List.of(), "full_finetune_distributed",
            "llama3_2/1B_full"),
        Arguments.of("single node multi-gpu lora", 1, auto, 4, lora, "lora_finetune_distributed",
            "llama3_2/1B_lora"),
        Arguments.of("single node multi-gpu qlora", 1, auto, 4, qlora, "lora_finetune_distributed",
            "llama3_2/1B_qlora"),
        Arguments.of("multi-node full", 2, auto, 8, List.of(), "full_finetune_distributed",
            "llama3_2/1B_full_multinode"),
        Arguments.of("numProcPerNode=1 forces single device even with multiple gpus", 1, new IntOrString(1), 4,
            List.of(), "full_finetune_single_device", "llama3_2/1B_full_single_device"),
        Arguments.of("numProcPerNode>1 uses distributed", 1, new IntOrString(4), 4, List.of(),
            "full_finetune_distributed", "llama3_2/1B_full"),
        Arguments.of("quantize_base=False is not QLoRA", 1, auto, 1, List.of("model.quantize_base=False"),
            "full_finetune_single_device", "llama3_2/1B_full_single_device"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modelCases")
  void namesTheModelFromTheRuntime(String name, String runtimeName, String expectedModel) {
    assertThat(TuneModel.fromRuntimeName(runtimeName).name()).isEqualTo(expectedModel);
  }

  static Stream<Arguments> modelCases() {
    return Stream.of(
        Arguments.of("llama3.2 1B is normalized", "torchtune-llama3.2-1b", "llama3_2/1B"),
        Arguments.of("qwen2.5 1.5B is normalized", "torchtune-qwen2.5-1.5b", "qwen2_5/1.5B"),
        Arguments.of("fewer than three parts give no model", "torchtune-llama3.2", ""),
        Arguments.of("more than three parts give no model", "torchtune-llama3.2-1b-extra", ""),
        Arguments.of("an empty name gives no model", "", ""));
  }

  private static Consumer<TrainJob> trainJob(Consumer<TrainJob> change) {
    return change;
  }
}
