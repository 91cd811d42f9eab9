package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.api.v1alpha1.TorchEnvInjectionTarget;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The torch policy's {@code envInjection}: extra containers of the runtime (init containers running preflight
 * checks, sidecars) that also receive the {@code PET_*} variables. They always get the master address too, even
 * for torchtune, whose main container gets the rendezvous endpoint on its command line instead
 * (kubeflow/trainer#3516).
 *
 * <p>A target names a replicated job (pod set) and containers in it; a name matches a regular container before an
 * init container.
 */
final class EnvInjection {

  private EnvInjection() {
  }

  /** A runtime problem, reported at {@code spec.runtimeRef} for each target container the template lacks. */
  static List<FieldError> validate(RuntimeInfo info, TorchMLPolicySource policy) {
    List<FieldError> errors = new ArrayList<>();
    for (TorchEnvInjectionTarget target : targets(policy)) {
      for (String containerName : containerNames(target)) {
        if (find(info, target.getJobName(), containerName).isEmpty()) {
          errors.add(FieldError.invalid(FieldPath.of("spec", "runtimeRef"), target,
              notFound(target.getJobName(), containerName)));
        }
      }
    }
    return errors;
  }

  /**
   * Upserts {@code env} into every target container.
   *
   * @throws IllegalStateException if a target container is missing (validation reports it first)
   */
  static void inject(RuntimeInfo info, TorchMLPolicySource policy, List<EnvVar> env) {
    for (TorchEnvInjectionTarget target : targets(policy)) {
      for (String containerName : containerNames(target)) {
        PodSet podSet = info.podSet(target.getJobName()).orElse(null);
        if (podSet == null || find(info, target.getJobName(), containerName).isEmpty()) {
          throw new IllegalStateException(notFound(target.getJobName(), containerName));
        }
        info.putPodSet(upsert(podSet, containerName, env));
      }
    }
  }

  private static PodSet upsert(PodSet podSet, String containerName, List<EnvVar> env) {
    if (podSet.container(containerName).isPresent()) {
      return podSet.withContainer(containerName, c -> c.withEnvUpserted(env));
    }
    List<ContainerInfo> initContainers = new ArrayList<>(podSet.initContainers());
    initContainers.replaceAll(c -> c.name().equals(containerName) ? c.withEnvUpserted(env) : c);
    return PodSet.copyOf(podSet).withInitContainers(initContainers);
  }

  private static Optional<ContainerInfo> find(RuntimeInfo info, String jobName, String containerName) {
    return info.podSet(jobName).flatMap(ps -> ps.container(containerName)
        .or(() -> ps.initContainers().stream().filter(c -> c.name().equals(containerName)).findFirst()));
  }

  private static String notFound(String jobName, String containerName) {
    return "envInjection target podSet \"" + jobName + "\" container \"" + containerName
        + "\" not found in runtime template";
  }

  private static List<TorchEnvInjectionTarget> targets(TorchMLPolicySource policy) {
    return policy.getEnvInjection() == null || policy.getEnvInjection().getTargets() == null
        ? List.of() : policy.getEnvInjection().getTargets();
  }

  private static List<String> containerNames(TorchEnvInjectionTarget target) {
    return target.getContainerNames() == null ? List.of() : target.getContainerNames();
  }
}
