package io.kftrainer.framework.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.ObjectKey;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which TrainJobs a change of a LimitRange or RuntimeClass requeues, as upstream's PodGroup event handlers decide;
 * shared by the gang-scheduling plugins (CoScheduling, Volcano) and open to third-party ones.
 * A LimitRange's container defaults and a RuntimeClass's pod overhead change what the pods will really request,
 * and only a suspended TrainJob may still have its PodGroup rebuilt, so only suspended TrainJobs are requeued.
 *
 * <p>The mappers are singletons so that the watches that use them compare equal however often they are declared.
 */
public final class SuspendedTrainJobs {

  /** A LimitRange event: the suspended TrainJobs of the LimitRange's namespace. */
  public static final EventMapper IN_NAMESPACE = SuspendedTrainJobs::inNamespaceOf;

  /**
   * A RuntimeClass event: the suspended TrainJobs, in every namespace, whose runtime has a pod template that runs
   * with this RuntimeClass.
   */
  public static final EventMapper USING_RUNTIME_CLASS = SuspendedTrainJobs::usingRuntimeClass;

  private SuspendedTrainJobs() {
  }

  private static Set<ObjectKey> inNamespaceOf(HasMetadata limitRange, ObjectLookup cluster) {
    return suspended(cluster.list(TrainJob.class, limitRange.getMetadata().getNamespace()));
  }

  private static Set<ObjectKey> usingRuntimeClass(HasMetadata runtimeClass, ObjectLookup cluster) {
    String name = runtimeClass.getMetadata().getName();
    Set<ObjectKey> trainingRuntimes = cluster.list(TrainingRuntime.class, null).stream()
        .filter(runtime -> runsWith(runtime.getSpec(), name))
        .map(ObjectKey::of)
        .collect(Collectors.toSet());
    Set<String> clusterTrainingRuntimes = cluster.list(ClusterTrainingRuntime.class, null).stream()
        .filter(runtime -> runsWith(runtime.getSpec(), name))
        .map(runtime -> runtime.getMetadata().getName())
        .collect(Collectors.toSet());
    if (trainingRuntimes.isEmpty() && clusterTrainingRuntimes.isEmpty()) {
      return Set.of();
    }
    List<TrainJob> referring = cluster.list(TrainJob.class, null).stream()
        .filter(trainJob -> refersToAny(trainJob, trainingRuntimes, clusterTrainingRuntimes))
        .toList();
    return suspended(referring);
  }

  private static Set<ObjectKey> suspended(List<TrainJob> trainJobs) {
    Set<ObjectKey> keys = new LinkedHashSet<>();
    for (TrainJob trainJob : trainJobs) {
      if (trainJob.getSpec() != null && Boolean.TRUE.equals(trainJob.getSpec().getSuspend())) {
        keys.add(ObjectKey.of(trainJob));
      }
    }
    return keys;
  }

  private static boolean runsWith(TrainingRuntimeSpec spec, String runtimeClassName) {
    if (spec == null || spec.getTemplate() == null || spec.getTemplate().getSpec() == null
        || spec.getTemplate().getSpec().getReplicatedJobs() == null) {
      return false;
    }
    return spec.getTemplate().getSpec().getReplicatedJobs().stream()
        .map(SuspendedTrainJobs::podSpec)
        .flatMap(Optional::stream)
        .anyMatch(pod -> runtimeClassName.equals(pod.getRuntimeClassName()));
  }

  private static Optional<PodSpec> podSpec(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(t -> t.getSpec())
        .map(s -> s.getTemplate())
        .map(t -> t.getSpec());
  }

  /**
   * Whether the TrainJob's runtime is one of these. A TrainingRuntime is looked up in the TrainJob's namespace; an
   * unset kind means ClusterTrainingRuntime, the API default.
   */
  private static boolean refersToAny(TrainJob trainJob, Set<ObjectKey> trainingRuntimes,
      Set<String> clusterTrainingRuntimes) {
    RuntimeRef ref = trainJob.getSpec() == null ? null : trainJob.getSpec().getRuntimeRef();
    if (ref == null || !Objects.requireNonNullElse(ref.getApiGroup(), TrainerConstants.GROUP)
        .equals(TrainerConstants.GROUP)) {
      return false;
    }
    String kind = Objects.requireNonNullElse(ref.getKind(), TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND);
    if (kind.equals(TrainerConstants.TRAINING_RUNTIME_KIND)) {
      return trainingRuntimes.contains(new ObjectKey(trainJob.getMetadata().getNamespace(), ref.getName()));
    }
    return kind.equals(TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND)
        && clusterTrainingRuntimes.contains(ref.getName());
  }
}
