package io.kftrainer.plugins.torch;

import static io.kftrainer.plugins.torch.TorchFixtures.requests;
import static io.kftrainer.plugins.torch.TorchFixtures.unchanged;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TorchElasticPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.testkit.TestPipeline;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link TorchPlugin#validate}: the exact errors, with their paths. */
class TorchValidationTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new TorchPlugin());

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reportsExactErrors(String name, String runtimeResource, Consumer<TrainingRuntimeSpec> runtimeChange,
      Consumer<TrainJob> trainJobChange, List<String> expectedErrors) {
    ValidationResult result = PIPELINE.validate(TorchFixtures.runtime(runtimeResource, runtimeChange),
        TorchFixtures.trainJob(trainJobChange));

    assertThat(result.errors()).extracting(TorchFixtures::describe).containsExactlyElementsOf(expectedErrors);
  }

  static Stream<Arguments> cases() {
    String runtime = "torch/runtime.yaml";
    return Stream.of(
        Arguments.of("a valid TrainJob has no errors", runtime, unchanged(),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(env("test"), env("test2")))),
            List.of()),
        Arguments.of("a runtime without torch policy is not checked", runtime,
            runtimeChange(spec -> spec.setMlPolicy(new MLPolicy())),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(env("PET_NNODES")))),
            List.of()),
        Arguments.of("one reserved env var is rejected", runtime, unchanged(),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(env("test"), env("PET_NPROC_PER_NODE")))),
            List.of("INVALID spec.trainer.env: must not have reserved envs, invalid envs configured: "
                + "[PET_NPROC_PER_NODE]")),
        Arguments.of("all reserved env vars are listed sorted in one error", runtime, unchanged(),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(env("PET_NODE_RANK"), env("PET_MASTER_PORT"),
                env("PET_NNODES"), env("PET_MASTER_ADDR"), env("PET_NPROC_PER_NODE")))),
            List.of("INVALID spec.trainer.env: must not have reserved envs, invalid envs configured: "
                + "[PET_MASTER_ADDR PET_MASTER_PORT PET_NNODES PET_NODE_RANK PET_NPROC_PER_NODE]")),
        Arguments.of("rendezvous env vars are free to set without an elastic policy", runtime, unchanged(),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(env("PET_RDZV_BACKEND"),
                env("PET_MAX_RESTARTS")))),
            List.of()),
        Arguments.of("rendezvous env vars are reserved with an elastic policy", runtime,
            runtimeChange(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(new TorchElasticPolicy())),
            trainJob(tj -> tj.getSpec().getTrainer().setEnv(List.of(env("PET_RDZV_ENDPOINT"),
                env("PET_MAX_RESTARTS"), env("PET_RDZV_BACKEND")))),
            List.of("INVALID spec.trainer.env: must not have reserved envs, invalid envs configured: "
                + "[PET_MAX_RESTARTS PET_RDZV_BACKEND PET_RDZV_ENDPOINT]")),
        Arguments.of("a missing envInjection container is reported at the runtime reference",
            "torch/runtime-with-injection.yaml",
            runtimeChange(spec -> spec.getMlPolicy().getTorch().getEnvInjection().getTargets().get(0)
                .setContainerNames(List.of("missing-container", "preflight-check"))),
            unchanged(),
            List.of("INVALID spec.runtimeRef: envInjection target podSet \"node\" container \"missing-container\" "
                + "not found in runtime template")),
        Arguments.of("an envInjection target job that does not exist is reported for each container",
            "torch/runtime-with-injection.yaml",
            runtimeChange(spec -> spec.getMlPolicy().getTorch().getEnvInjection().getTargets().get(1)
                .setJobName("absent")),
            unchanged(),
            List.of("INVALID spec.runtimeRef: envInjection target podSet \"absent\" container \"metrics\" "
                + "not found in runtime template")),
        Arguments.of("an unknown numProcPerNode keyword is rejected", runtime, unchanged(),
            trainJob(tj -> tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString("tpu"))),
            List.of("INVALID spec.trainer.numProcPerNode: must have an int value or [auto cpu gpu]")),
        Arguments.of("numProcPerNode keywords are accepted", runtime, unchanged(),
            trainJob(tj -> tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString("gpu"))),
            List.of()),
        Arguments.of("elastic minNodes above maxNodes is rejected", runtime,
            runtimeChange(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
                new TorchElasticPolicy().withMinNodes(4).withMaxNodes(2))),
            unchanged(),
            List.of("INVALID spec.runtimeRef: elasticPolicy minNodes (4) must be less than or equal to maxNodes (2)")),
        Arguments.of("elastic minNodes below 1 is rejected", runtime,
            runtimeChange(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
                new TorchElasticPolicy().withMinNodes(0).withMaxNodes(2))),
            unchanged(),
            List.of("INVALID spec.runtimeRef: elasticPolicy minNodes must be greater than or equal to 1, got 0")),
        Arguments.of("the TrainJob's numNodes must lie within the elastic bounds", runtime,
            runtimeChange(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
                new TorchElasticPolicy().withMinNodes(2).withMaxNodes(4))),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(5)),
            List.of("INVALID spec.trainer.numNodes: numNodes must be between elasticPolicy minNodes (2) and "
                + "maxNodes (4)")),
        Arguments.of("the runtime's numNodes must lie within the elastic bounds when the TrainJob sets none",
            runtime,
            runtimeChange(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
                new TorchElasticPolicy().withMinNodes(2).withMaxNodes(4))),
            unchanged(),
            List.of("INVALID spec.runtimeRef: numNodes must be between elasticPolicy minNodes (2) and "
                + "maxNodes (4)")),
        Arguments.of("numNodes on an elastic bound is valid", runtime,
            runtimeChange(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
                new TorchElasticPolicy().withMinNodes(2).withMaxNodes(4))),
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(4)),
            List.of()),
        Arguments.of("errors of several checks are all reported, envInjection first",
            "torch/runtime-with-injection.yaml",
            runtimeChange(spec -> {
              spec.getMlPolicy().getTorch().getEnvInjection().getTargets().get(0)
                  .setContainerNames(List.of("missing"));
              spec.getMlPolicy().getTorch().setElasticPolicy(new TorchElasticPolicy().withMaxNodes(1));
            }),
            trainJob(tj -> {
              tj.getSpec().getTrainer().setNumProcPerNode(new IntOrString("many"));
              tj.getSpec().getTrainer().setEnv(List.of(env("PET_NNODES")));
              tj.getSpec().getTrainer().setNumNodes(2);
            }),
            List.of("INVALID spec.runtimeRef: envInjection target podSet \"node\" container \"missing\" not found in "
                    + "runtime template",
                "INVALID spec.trainer.numProcPerNode: must have an int value or [auto cpu gpu]",
                "INVALID spec.trainer.env: must not have reserved envs, invalid envs configured: [PET_NNODES]",
                "INVALID spec.trainer.numNodes: numNodes must be between elasticPolicy minNodes (1) and "
                    + "maxNodes (1)")));
  }

  @Test
  void theReservedEnvErrorCarriesTheWholeEnvListAsBadValue() {
    List<EnvVar> env = List.of(env("test"), env("PET_NNODES"));
    ValidationResult result = PIPELINE.validate(TorchFixtures.runtime(unchanged()),
        TorchFixtures.trainJob(tj -> tj.getSpec().getTrainer().setEnv(env)));

    assertThat(result.errors()).extracting(FieldError::badValue).containsExactly(env);
  }

  @Test
  void elasticMetricsAreAcceptedWithAWarning() {
    ValidationResult result = PIPELINE.validate(
        TorchFixtures.runtime(spec -> spec.getMlPolicy().getTorch().setElasticPolicy(
            new TorchElasticPolicy().withMinNodes(1).withMaxNodes(2).withMetrics(List.of(new MetricSpec())))),
        TorchFixtures.trainJob(unchanged()));

    assertThat(result.errors()).isEmpty();
    assertThat(result.warnings()).containsExactly("spec.runtimeRef: the torch elasticPolicy.metrics of runtime "
        + "torch-distributed are ignored: TrainJobs are not autoscaled");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("torchtuneCases")
  void checksTorchtuneTrainJobs(String name, String runtimeName, Consumer<TrainJob> trainJobChange,
      List<String> expectedErrors) {
    TrainJob trainJob = TorchFixtures.trainJob(tj -> {
      tj.getSpec().getRuntimeRef().setName(runtimeName);
      tj.getSpec().getTrainer().setCommand(List.of("tune", "run"));
      trainJobChange.accept(tj);
    });

    ValidationResult result = PIPELINE.validate(TorchFixtures.runtime(unchanged()), trainJob);

    assertThat(result.errors()).extracting(TorchFixtures::describe).containsExactlyElementsOf(expectedErrors);
  }

  static Stream<Arguments> torchtuneCases() {
    return Stream.of(
        Arguments.of("a supported model on one node is valid", "torchtune-llama3.2-1b", unchanged(), List.of()),
        Arguments.of("an unsupported pretrained model is rejected", "torchtune-llama3.1-70b", unchanged(),
            List.of("INVALID spec.runtimeRef.name: must have a supported pretrained model, invalid model configured: "
                + "llama3_1/70B")),
        Arguments.of("a runtime name that names no model is rejected", "torch-distributed", unchanged(),
            List.of("INVALID spec.runtimeRef.name: must have a supported pretrained model, invalid model "
                + "configured: ")),
        Arguments.of("multi-node mode is only enabled for Llama-3.3-70b", "torchtune-llama3.2-3b",
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(2)),
            List.of("INVALID spec.trainer.numNodes: must be 1 for llama3_2/3B model")),
        Arguments.of("multi-node mode is valid for Llama-3.3-70b", "torchtune-llama3.3-70b",
            trainJob(tj -> tj.getSpec().getTrainer().setNumNodes(2)), List.of()),
        Arguments.of("qlora is not supported for qwen", "torchtune-qwen2.5-1.5b",
            trainJob(tj -> {
              tj.getSpec().getTrainer().setArgs(List.of("model.quantize_base=True"));
              tj.getSpec().getTrainer().setResourcesPerNode(requests("example.com/gpu", "1"));
            }),
            List.of("INVALID spec.runtimeRef.name: QLoRA is not supported for qwen2_5/1.5B model")),
        Arguments.of("multi-device qlora is not supported for llama3.2-1b", "torchtune-llama3.2-1b",
            trainJob(tj -> {
              tj.getSpec().getTrainer().setArgs(List.of("model.quantize_base=True"));
              tj.getSpec().getTrainer().setResourcesPerNode(requests("example.com/gpu", "2"));
            }),
            List.of("INVALID spec.trainer.numProcPerNode: must be auto or 1 for llama3_2/1B model when using QLoRA",
                "INVALID spec.trainer.resourcesPerNode: must have gpu resource with value 1 for llama3_2/1B model "
                    + "when using QLoRA")),
        Arguments.of("dora turns qlora off", "torchtune-llama3.2-1b",
            trainJob(tj -> {
              tj.getSpec().getTrainer().setArgs(List.of("model.quantize_base=True", "model.use_dora=true"));
              tj.getSpec().getTrainer().setResourcesPerNode(requests("example.com/gpu", "2"));
            }),
            List.of()),
        Arguments.of("lora is not supported for multi-node training", "torchtune-llama3.3-70b",
            trainJob(tj -> {
              tj.getSpec().getTrainer().setNumNodes(2);
              tj.getSpec().getTrainer().setArgs(List.of("model.lora_attn_modules=['q_proj','v_proj']"));
            }),
            List.of("INVALID spec.trainer.numNodes: LoRA fine-tuning is not supported for multi-node training in "
                + "TorchTune")),
        Arguments.of("lora is supported for single-node training", "torchtune-llama3.2-1b",
            trainJob(tj -> tj.getSpec().getTrainer().setArgs(List.of("model.lora_attn_modules=['q_proj']"))),
            List.of()),
        Arguments.of("immutable runtime configs must not be set in trainer args", "torchtune-llama3.2-1b",
            trainJob(tj -> tj.getSpec().getTrainer().setArgs(List.of("output_dir=custom-output",
                "tokenizer.path=/some/path", "epochs=2"))),
            List.of("INVALID spec.trainer.args[0]: must not set immutable config \"output_dir\" in trainer args; "
                    + "it is managed by the runtime",
                "INVALID spec.trainer.args[1]: must not set immutable config \"tokenizer.path\" in trainer args; "
                    + "it is managed by the runtime")));
  }

  private static EnvVar env(String name) {
    return new EnvVar(name, "value", null);
  }

  private static Consumer<TrainingRuntimeSpec> runtimeChange(Consumer<TrainingRuntimeSpec> change) {
    return change;
  }

  private static Consumer<TrainJob> trainJob(Consumer<TrainJob> change) {
    return change;
  }
}
