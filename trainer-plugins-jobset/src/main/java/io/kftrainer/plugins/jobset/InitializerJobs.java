package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.SecretEnvSource;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.Initializer;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds {@code spec.initializer.dataset} and {@code spec.initializer.model} to the replicated jobs whose ancestor
 * label is {@code dataset-initializer} / {@code model-initializer}: such a job runs once (replicas 1), and its
 * container of the same name gets {@value JobSetPlugin#ENV_STORAGE_URI}, the initializer's env (upserted) and its
 * secret as an {@code envFrom} source.
 */
final class InitializerJobs {

  /** The part of a dataset or model initializer that reaches its container. */
  private record Input(String storageUri, List<EnvVar> env, LocalObjectReference secretRef) {
  }

  private InitializerJobs() {
  }

  static void apply(JobSetSpec spec, TrainJob trainJob) {
    Initializer initializer = trainJob.getSpec().getInitializer();
    Optional<Input> dataset = Optional.ofNullable(initializer).map(Initializer::getDataset)
        .map(d -> new Input(d.getStorageUri(), d.getEnv(), d.getSecretRef()));
    Optional<Input> model = Optional.ofNullable(initializer).map(Initializer::getModel)
        .map(m -> new Input(m.getStorageUri(), m.getEnv(), m.getSecretRef()));
    for (ReplicatedJob job : ReplicatedJobs.of(spec)) {
      if (ReplicatedJobs.hasAncestor(job, TrainerConstants.ANCESTOR_DATASET_INITIALIZER)) {
        apply(job, TrainerConstants.CONTAINER_DATASET_INITIALIZER, dataset);
      }
      if (ReplicatedJobs.hasAncestor(job, TrainerConstants.ANCESTOR_MODEL_INITIALIZER)) {
        apply(job, TrainerConstants.CONTAINER_MODEL_INITIALIZER, model);
      }
    }
  }

  private static void apply(ReplicatedJob job, String containerName, Optional<Input> input) {
    job.setReplicas(1);
    if (input.isEmpty()) {
      return;
    }
    ReplicatedJobs.podSpec(job).map(pod -> pod.getContainers()).orElse(List.of()).stream()
        .filter(c -> containerName.equals(c.getName()))
        .forEach(c -> apply(c, input.get()));
  }

  private static void apply(Container container, Input input) {
    List<EnvVar> env = container.getEnv();
    if (input.storageUri() != null) {
      env = EnvVars.upsert(env, List.of(envVar(JobSetPlugin.ENV_STORAGE_URI, input.storageUri())));
    }
    container.setEnv(EnvVars.upsert(env, input.env()));
    if (input.secretRef() != null) {
      List<EnvFromSource> envFrom = container.getEnvFrom() == null ? new ArrayList<>()
          : new ArrayList<>(container.getEnvFrom());
      EnvFromSource source = new EnvFromSource();
      source.setSecretRef(new SecretEnvSource(input.secretRef().getName(), null));
      envFrom.add(source);
      container.setEnvFrom(envFrom);
    }
  }

  private static EnvVar envVar(String name, String value) {
    EnvVar envVar = new EnvVar();
    envVar.setName(name);
    envVar.setValue(value);
    return envVar;
  }
}
