package io.kftrainer.local;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.framework.runner.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What local mode shows a person watching it: one line when a TrainJob's children appear, and one per condition
 * transition, e.g.
 *
 * <pre>
 * trainjob default/mnist: created JobSet mnist, ConfigMap mnist-runtime-snapshot
 * trainjob default/mnist: 40% (about 12 s left) loss=0.031
 * trainjob default/mnist: Complete (AllJobsCompleted)
 * trainjob default/bad: Failed (TrainingRuntimeNotSupported): spec.runtimeRef: Not found: ...
 * trainjob default/mnist: deleted
 * </pre>
 *
 * A true condition shows as its type, a false one as {@code Type=False}, each with its reason; the message follows
 * for a false condition and for {@code Failed}, where it explains what went wrong. Children not shown yet
 * ({@link TrainJobChildren}) follow the first line of a transition, or make a {@code created} line of their own
 * when the JobSet appears ({@link #childrenChanged}): upstream's conditions say nothing when the children are made.
 * Each new report of the training code ({@code status.trainerStatus}, {@link TrainerStatusLine}) makes a line too.
 *
 * <p>Called by the TrainJob and JobSet informer threads; keeps per TrainJob uid the conditions and children already
 * shown.
 */
final class TrainJobProgress implements ResourceEventHandler<TrainJob> {

  private record Shown(Map<String, String> conditions, Set<String> children) {
  }

  private final Function<TrainJob, List<HasMetadata>> children;
  private final Consumer<String> out;
  private final Map<String, Shown> shown = new ConcurrentHashMap<>();
  private final Map<String, TrainerStatus> progressShown = new ConcurrentHashMap<>();
  /** The TrainJobs kept from an earlier run ({@link #remember}): their children are not announced again. */
  private final Set<String> kept = ConcurrentHashMap.newKeySet();

  /**
   * @param children finds a TrainJob's children ({@link TrainJobChildren#of})
   * @param out where the lines go
   */
  TrainJobProgress(Function<TrainJob, List<HasMetadata>> children, Consumer<String> out) {
    this.children = Objects.requireNonNull(children, "children");
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
      Shown before = shownFor(trainJob);
      List<Condition> conditions = trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null
          ? List.of() : trainJob.getStatus().getConditions();
      String state = "running";
      for (Condition condition : conditions) {
        before.conditions().put(condition.getType(), condition.getStatus() + "/" + condition.getReason());
        if (Conditions.TRUE.equals(condition.getStatus())) {
          state = condition.getType();
        }
      }
      if (trainJob.getStatus() != null && trainJob.getStatus().getTrainerStatus() != null) {
        progressShown.put(trainJob.getMetadata().getUid(), trainJob.getStatus().getTrainerStatus());
      }
      kept.add(trainJob.getMetadata().getUid());
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
    kept.remove(trainJob.getMetadata().getUid());
    progressShown.remove(trainJob.getMetadata().getUid());
    out.accept(prefix(trainJob) + "deleted");
  }

  /** Shows the TrainJob's children that were not shown yet, on a {@code created} line. */
  synchronized void childrenChanged(TrainJob trainJob) {
    List<String> created = newChildren(trainJob, shownFor(trainJob));
    if (!created.isEmpty()) {
      out.accept(prefix(trainJob) + "created " + String.join(", ", created));
    }
  }

  private Shown shownFor(TrainJob trainJob) {
    return shown.computeIfAbsent(trainJob.getMetadata().getUid(), uid -> new Shown(new HashMap<>(), new HashSet<>()));
  }

  private List<String> newChildren(TrainJob trainJob, Shown before) {
    List<String> created = new ArrayList<>();
    if (kept.contains(trainJob.getMetadata().getUid())) {
      return created;
    }
    for (HasMetadata child : children.apply(trainJob)) {
      String description = TrainJobChildren.describe(child);
      if (before.children().add(description)) {
        created.add(description);
      }
    }
    return created;
  }

  private synchronized void report(TrainJob trainJob) {
    reportProgress(trainJob);
    Shown before = shownFor(trainJob);
    List<Condition> conditions = trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null
        ? List.of() : trainJob.getStatus().getConditions();
    List<String> lines = new ArrayList<>();
    for (Condition condition : conditions) {
      String state = condition.getStatus() + "/" + condition.getReason();
      if (!state.equals(before.conditions().put(condition.getType(), state))) {
        lines.add(describe(condition));
      }
    }
    if (lines.isEmpty()) {
      return;
    }
    List<String> created = newChildren(trainJob, before);
    for (int i = 0; i < lines.size(); i++) {
      String line = prefix(trainJob) + lines.get(i);
      if (i == 0 && !created.isEmpty()) {
        line += " -> " + String.join(", ", created);
      }
      out.accept(line);
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
