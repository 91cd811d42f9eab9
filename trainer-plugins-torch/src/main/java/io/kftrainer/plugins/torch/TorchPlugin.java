package io.kftrainer.plugins.torch;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PyTorch distributed training with torchrun (upstream's {@code Torch} plugin), for runtimes with
 * {@code mlPolicy.torch}.
 *
 * <p>Enforce: the trainer pod set runs {@code trainer.numNodes} pods when the TrainJob sets it; its container
 * {@code node} gets the TrainJob's {@code trainer.env}, then the {@code PET_*} variables torchrun reads
 * ({@link TorchrunEnv}), and port 29500. The policy's {@code envInjection} targets get the {@code PET_*} variables
 * too. A torchtune TrainJob ({@link TorchTune}) gets its rendezvous on the command line instead of the master
 * variables.
 *
 * <p>Unlike upstream, the variables are injected also when the TrainJob has no {@code spec.trainer}: upstream then
 * leaves a multi-node runtime without any rendezvous information.
 *
 * <p>Validate: missing {@code envInjection} containers, an unknown {@code numProcPerNode} keyword, reserved
 * {@code PET_*} variables in {@code trainer.env}, elastic bounds, and torchtune's rules.
 */
@AutoService(Plugin.class)
public final class TorchPlugin implements EnforceMLPolicy, CustomValidation {

  public static final String NAME = "Torch";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 100;
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    Optional<TorchMLPolicySource> policy = torchPolicy(context.info());
    if (policy.isEmpty()) {
      return;
    }
    RuntimeInfo info = context.info();
    TrainJob trainJob = context.trainJob();
    Trainer trainer = trainJob.getSpec().getTrainer();
    Optional<PodSet> trainerPodSet = info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER);
    int numNodes = info.numNodes(trainJob);
    trainerPodSet.ifPresent(ps -> info.putPodSet(ps.withCount(numNodes)));
    NodeResources resources = NodeResources.of(info, trainJob);
    ProcsPerNode procs = ProcsPerNode.resolve(policy.get(), trainer, resources);
    MasterEndpoint master = MasterEndpoint.of(info, trainJob);
    Optional<ElasticNodes> elastic = ElasticNodes.of(policy.get(), numNodes);
    TorchrunEnv env = TorchrunEnv.of(numNodes, procs, master, elastic);

    Optional<List<String>> tuneCommand = TorchTune.isEntrypoint(trainer)
        ? Optional.of(TorchTune.command(trainJob, info, numNodes, procs, resources.gpus(), master))
        : Optional.empty();
    trainerPodSet.ifPresent(ps -> info.updatePodSet(ps.name(),
        p -> p.withContainer(TrainerConstants.CONTAINER_NODE, c -> trainerContainer(c, trainer, env, tuneCommand))));
    EnvInjection.inject(info, policy.get(), env.all());
    elastic.ifPresent(e -> e.applyJobSetRestarts(info.template()));
  }

  private static ContainerInfo trainerContainer(ContainerInfo container, Trainer trainer, TorchrunEnv env,
      Optional<List<String>> tuneCommand) {
    ContainerInfo result = container;
    if (trainer != null && trainer.getEnv() != null) {
      result = result.withEnvUpserted(trainer.getEnv());
    }
    result = result.withEnvUpserted(env.process());
    result = tuneCommand.isPresent() ? result.withCommand(tuneCommand.get()) : result.withEnvUpserted(env.rendezvous());
    return result.withPortAdded(new ContainerPortBuilder().withContainerPort(TorchEnv.MASTER_PORT_NUMBER).build());
  }

  @Override
  public ValidationResult validate(ValidationContext context) {
    Optional<TorchMLPolicySource> policy = torchPolicy(context.info());
    if (policy.isEmpty()) {
      return ValidationResult.ok();
    }
    TrainJob trainJob = context.trainJob();
    Trainer trainer = trainJob.getSpec().getTrainer();
    boolean elastic = policy.get().getElasticPolicy() != null;
    List<FieldError> errors = new ArrayList<>(EnvInjection.validate(context.info(), policy.get()));
    List<String> warnings = new ArrayList<>();
    if (trainer != null) {
      ProcsPerNode.validate(trainer.getNumProcPerNode()).ifPresent(errors::add);
      ReservedEnv.validate(trainer.getEnv(), elastic).ifPresent(errors::add);
    }
    if (elastic) {
      errors.addAll(validateElastic(context.info(), policy.get(), trainJob));
      if (policy.get().getElasticPolicy().getMetrics() != null
          && !policy.get().getElasticPolicy().getMetrics().isEmpty()) {
        warnings.add("spec.runtimeRef: the torch elasticPolicy.metrics of runtime " + context.info().runtime().name()
            + " are ignored: TrainJobs are not autoscaled");
      }
    }
    if (TorchTune.isEntrypoint(trainer)) {
      errors.addAll(TorchTune.validate(trainJob, ProcsPerNode.requested(policy.get(), trainer),
          NodeResources.of(context.info(), trainJob)));
    }
    return new ValidationResult(errors, warnings);
  }

  private static List<FieldError> validateElastic(RuntimeInfo info, TorchMLPolicySource policy, TrainJob trainJob) {
    Trainer trainer = trainJob.getSpec().getTrainer();
    boolean fromTrainJob = trainer != null && trainer.getNumNodes() != null;
    int numNodes = info.numNodes(trainJob);
    FieldPath path = fromTrainJob ? FieldPath.of("spec", "trainer", "numNodes") : FieldPath.of("spec", "runtimeRef");
    return ElasticNodes.of(policy, numNodes).orElseThrow().validate(policy.getElasticPolicy(), numNodes, path);
  }

  private static Optional<TorchMLPolicySource> torchPolicy(RuntimeInfo info) {
    return info.mlPolicy().map(MLPolicy::getTorch);
  }
}
