package io.kftrainer.local;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.operator.controller.JobSetRestarts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What local mode shows a person watching it: one line with the objects a reconcile created for a TrainJob, and
 * one per condition transition, e.g.
 *
 * <pre>
 * trainjob default/mnist: created JobSet mnist, ConfigMap mnist-runtime-snapshot, ConfigMap mnist-acme-booking
 * trainjob default/mnist: 40% (about 12 s left) loss=0.031
 * trainjob default/mnist: restart 1/3 after mnist-node-0-1-7nd7v on trainer-local failed: exit code 137
 * trainjob default/mnist: Complete (AllJobsCompleted)
 * trainjob default/bad: Failed (TrainingRuntimeNotSupported): spec.runtimeRef: Not found: ...
 * trainjob default/mnist: deleted
 * </pre>
 *
 * A true condition shows as its type, a false one as {@code Type=False}, each with its reason; the message follows
 * for a false condition and for {@code Failed}, where it explains what went wrong. The {@code created} line comes
 * from the operator's reconcile once it has created the objects ({@link #created}, an
 * {@link io.kftrainer.operator.controller.ObjectsCreated}): upstream's conditions say nothing when the children are
 * made, and a builder ordered after the JobSet plugin (every third-party builder by default) creates its objects
 * after the JobSet. Custom resources come first, ConfigMaps last. Each new report of the training code
 * ({@code status.trainerStatus}, {@link TrainerStatusLine}) makes a line too.
 *
 * <p>Called by the TrainJob informer's thread and the reconciles' threads; keeps per TrainJob uid the conditions
 * already shown.
 */
final class TrainJobProgress implements ResourceEventHandler<TrainJob> {

  private final Consumer<String> out;
  /** Per TrainJob uid, the state ({@code status/reason}) of each condition type shown. */
  private final Map<String, Map<String, String>> shown = new ConcurrentHashMap<>();
  private final Map<String, TrainerStatus> progressShown = new ConcurrentHashMap<>();

  /** @param out where the lines go */
  TrainJobProgress(Consumer<String> out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  /**
   * Takes what {@code trainJobs} show now as shown, without a line: the TrainJobs an earlier run of local left
   * (a data directory keeps them), whose history is not news. Returns their summary, e.g.
   * {@code 5 TrainJobs (3 Complete, 1 Failed, 1 running)}, or empty when there are none.
   */
  synchronized String remember(List<TrainJob> trainJobs) {
    Map<String, Integer> states = new java.util.TreeMap<>();
    for (TrainJob trainJob : trainJobs) {
      Map<String, String> before = shownFor(trainJob);
      List<Condition> conditions = trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null
          ? List.of() : trainJob.getStatus().getConditions();
      String state = "running";
      for (Condition condition : conditions) {
        before.put(condition.getType(), condition.getStatus() + "/" + condition.getReason());
        if (Conditions.TRUE.equals(condition.getStatus())) {
          state = condition.getType();
        }
      }
      if (trainJob.getStatus() != null && trainJob.getStatus().getTrainerStatus() != null) {
        progressShown.put(trainJob.getMetadata().getUid(), trainJob.getStatus().getTrainerStatus());
      }
      states.merge(state, 1, Integer::sum);
    }
    return summary(trainJobs.size(), "TrainJob", states);
  }

  /** {@code 5 TrainJobs (3 Complete, 1 Failed, 1 running)}; empty for none. */
  static String summary(int count, String kind, Map<String, Integer> states) {
    if (count == 0) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    states.forEach((state, n) -> parts.add(n + " " + state));
    return count + " " + kind + (count == 1 ? "" : "s") + " (" + String.join(", ", parts) + ")";
  }

  @Override
  public void onAdd(TrainJob trainJob) {
    report(trainJob);
  }

  @Override
  public void onUpdate(TrainJob oldTrainJob, TrainJob trainJob) {
    report(trainJob);
  }

  @Override
  public synchronized void onDelete(TrainJob trainJob, boolean deletedFinalStateUnknown) {
    shown.remove(trainJob.getMetadata().getUid());
    progressShown.remove(trainJob.getMetadata().getUid());
    out.accept(prefix(trainJob) + "deleted");
  }

  /** The {@code created} line of what a reconcile created for {@code trainJob}: custom resources first. */
  synchronized void created(TrainJob trainJob, List<HasMetadata> objects) {
    List<String> created = objects.stream().sorted(Comparator.comparingInt(TrainJobProgress::rank))
        .map(object -> object.getKind() + " " + object.getMetadata().getName()).toList();
    if (!created.isEmpty()) {
      out.accept(prefix(trainJob) + "created " + String.join(", ", created));
    }
  }

  /**
   * The line of a JobSet restart the operator reported, e.g.
   * {@code trainjob default/x: restart 1/3 after x-node-0-1-7nd7v on trainer-local failed: exit code 137}.
   */
  void restarted(TrainJob trainJob, int restart, int maxRestarts, Optional<JobSetRestarts.PodFailure> failure) {
    out.accept(prefix(trainJob) + JobSetRestarts.counted(restart, maxRestarts) + " after "
        + failure.map(f -> f.pod() + (f.node() == null ? "" : " on " + f.node()) + " failed: " + f.reason())
            .orElse("a failure (its pod was not seen)"));
  }

  /** Custom resources (the JobSet, PodGroups) first, Kubernetes' own kinds next, ConfigMaps last. */
  private static int rank(HasMetadata object) {
    return object instanceof CustomResource<?, ?> ? 0 : object instanceof ConfigMap ? 2 : 1;
  }

  private Map<String, String> shownFor(TrainJob trainJob) {
    return shown.computeIfAbsent(trainJob.getMetadata().getUid(), uid -> new HashMap<>());
  }

  private synchronized void report(TrainJob trainJob) {
    reportProgress(trainJob);
    Map<String, String> before = shownFor(trainJob);
    List<Condition> conditions = trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null
        ? List.of() : trainJob.getStatus().getConditions();
    for (Condition condition : conditions) {
      String state = condition.getStatus() + "/" + condition.getReason();
      if (!state.equals(before.put(condition.getType(), state))) {
        out.accept(prefix(trainJob) + describe(condition));
      }
    }
  }

  private void reportProgress(TrainJob trainJob) {
    TrainerStatus status = trainJob.getStatus() == null ? null : trainJob.getStatus().getTrainerStatus();
    if (status == null || status.equals(progressShown.get(trainJob.getMetadata().getUid()))) {
      return;
    }
    progressShown.put(trainJob.getMetadata().getUid(), status);
    TrainerStatusLine.of(status).ifPresent(line -> out.accept(prefix(trainJob) + line));
  }

  private static String describe(Condition condition) {
    boolean isTrue = Conditions.TRUE.equals(condition.getStatus());
    String text = (isTrue ? condition.getType() : condition.getType() + "=" + condition.getStatus())
        + (condition.getReason() == null || condition.getReason().isEmpty() ? "" : " (" + condition.getReason() + ")");
    boolean explain = !isTrue || TrainerConstants.CONDITION_FAILED.equals(condition.getType());
    if (explain && condition.getMessage() != null && !condition.getMessage().isEmpty()) {
      text += ": " + condition.getMessage();
    }
    return text;
  }

  private static String prefix(TrainJob trainJob) {
    return "trainjob " + trainJob.getMetadata().getNamespace() + "/" + trainJob.getMetadata().getName() + ": ";
  }
}
