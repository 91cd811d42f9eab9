package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Fine-tuning with torchtune: a TrainJob whose {@code trainer.command} is exactly {@code [tune, run]} on a
 * {@code torchtune-<model>} runtime. Instead of the master variables, the trainer container's command is completed
 * (upstream's "complement torch plugin", proposal 2401) with:
 *
 * <ol>
 *   <li>{@code --rdzv_endpoint=<master>:29500} when the job spans several nodes or several processes;</li>
 *   <li>the recipe, {@code --config} and the config ({@link TuneRecipe});</li>
 *   <li>the runtime command's entries for the paths the runtime manages ({@code output_dir},
 *       {@code tokenizer.path}, {@code checkpointer.checkpoint_dir}, {@code tokenizer.merges_file}).</li>
 * </ol>
 */
final class TorchTune {

  static final List<String> ENTRYPOINT = List.of("tune", "run");
  static final String ARG_RDZV_ENDPOINT = "--rdzv_endpoint";
  static final String ARG_CONFIG = "--config";
  /** Config entries the runtime sets and a TrainJob may not override. */
  static final Set<String> IMMUTABLE_CONFIGS =
      Set.of("output_dir", "tokenizer.path", "checkpointer.checkpoint_dir", "tokenizer.merges_file");

  private TorchTune() {
  }

  static boolean isEntrypoint(Trainer trainer) {
    return trainer != null && ENTRYPOINT.equals(trainer.getCommand());
  }

  /** The trainer container's full command, starting with the TrainJob's {@code tune run}. */
  static List<String> command(TrainJob trainJob, RuntimeInfo info, int numNodes, ProcsPerNode procs, int gpus,
      MasterEndpoint master) {
    Trainer trainer = trainJob.getSpec().getTrainer();
    List<String> command = new ArrayList<>(trainer.getCommand());
    boolean distributed = numNodes > 1 || procs.isInt() && procs.value().getIntVal() > 1 || !procs.isInt() && gpus > 1;
    if (distributed) {
      command.add(ARG_RDZV_ENDPOINT + "=" + master.hostAndPort());
    }
    TuneRecipe recipe = TuneRecipe.select(numNodes, procs.value(), gpus, trainer.getArgs(), model(trainJob));
    command.add(recipe.recipe());
    command.add(ARG_CONFIG);
    command.add(recipe.config());
    command.addAll(runtimeOverrides(info));
    return command;
  }

  /**
   * Upstream's torchtune checks. Like upstream, they look at the TrainJob alone: its {@code numNodes} (default 1)
   * and its unresolved {@code numProcPerNode}.
   */
  static List<FieldError> validate(TrainJob trainJob, IntOrString requestedProcs, NodeResources resources) {
    Trainer trainer = trainJob.getSpec().getTrainer();
    String runtimeName = trainJob.getSpec().getRuntimeRef() == null ? null
        : trainJob.getSpec().getRuntimeRef().getName();
    TuneModel model = TuneModel.fromRuntimeName(runtimeName);
    FieldPath runtimeNamePath = FieldPath.of("spec", "runtimeRef", "name");
    FieldPath numNodesPath = FieldPath.of("spec", "trainer", "numNodes");
    List<FieldError> errors = new ArrayList<>();

    if (!model.isSupported()) {
      errors.add(FieldError.invalid(runtimeNamePath, runtimeName,
          "must have a supported pretrained model, invalid model configured: " + model));
    }
    int numNodes = trainer.getNumNodes() == null ? 1 : trainer.getNumNodes();
    if (numNodes > 1 && !model.supportsMultiNode()) {
      errors.add(FieldError.invalid(numNodesPath, numNodes, "must be 1 for " + model + " model"));
    }
    TuneRecipe recipe = TuneRecipe.select(numNodes, requestedProcs, resources.gpus(), trainer.getArgs(), model);
    if (recipe.isQLoraConfig()) {
      if (model.equals(TuneModel.QWEN2_5_1_5B)) {
        errors.add(FieldError.invalid(runtimeNamePath, runtimeName, "QLoRA is not supported for " + model + " model"));
      }
      if (!recipe.isSingleDeviceQLoraConfig()
          && (model.equals(TuneModel.LLAMA3_2_1B) || model.equals(TuneModel.LLAMA3_2_3B))) {
        errors.add(FieldError.invalid(FieldPath.of("spec", "trainer", "numProcPerNode"), requestedProcs,
            "must be auto or 1 for " + model + " model when using QLoRA"));
        errors.add(FieldError.invalid(FieldPath.of("spec", "trainer", "resourcesPerNode"),
            trainer.getResourcesPerNode(),
            "must have gpu resource with value 1 for " + model + " model when using QLoRA"));
      }
    }
    if (numNodes > 1 && (TuneRecipe.isLora(trainer.getArgs()) || TuneRecipe.isQLora(trainer.getArgs()))) {
      errors.add(FieldError.invalid(numNodesPath, numNodes,
          "LoRA fine-tuning is not supported for multi-node training in TorchTune"));
    }
    List<String> args = trainer.getArgs() == null ? List.of() : trainer.getArgs();
    for (int i = 0; i < args.size(); i++) {
      String key = configKey(args.get(i));
      if (IMMUTABLE_CONFIGS.contains(key)) {
        errors.add(FieldError.invalid(FieldPath.of("spec", "trainer", "args").index(i), args.get(i),
            "must not set immutable config \"" + key + "\" in trainer args; it is managed by the runtime"));
      }
    }
    return errors;
  }

  private static TuneModel model(TrainJob trainJob) {
    return TuneModel.fromRuntimeName(trainJob.getSpec().getRuntimeRef() == null ? null
        : trainJob.getSpec().getRuntimeRef().getName());
  }

  /** The entries of the runtime trainer container's command that set a runtime-managed path. */
  private static List<String> runtimeOverrides(RuntimeInfo info) {
    return RuntimeTemplate.jobs(info).stream()
        .filter(RuntimeTemplate::hasTrainerAncestor)
        .flatMap(job -> RuntimeTemplate.nodeContainer(job).stream())
        .flatMap(c -> c.getCommand() == null ? Stream.<String>empty() : c.getCommand().stream())
        .filter(entry -> IMMUTABLE_CONFIGS.contains(configKey(entry)))
        .toList();
  }

  private static String configKey(String entry) {
    int eq = entry.indexOf('=');
    return eq < 0 ? entry : entry.substring(0, eq);
  }
}
