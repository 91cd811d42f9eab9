package io.kftrainer.differential;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One input of the differential suite: the documents applied in order (each create's admission answer is kept) in
 * namespace {@link #namespace()}, then the steps run on the TrainJob {@code trainJob}: each waits until the
 * TrainJob's condition {@code awaitCondition} is True, then applies its JSON merge patch to it. The case ends when
 * the TrainJob is {@code Complete} or {@code Failed}, or, when {@code terminal} is false (pods that wait for a
 * scheduler the lab does not run), once its JobSet exists; or after {@code timeout}, which the outcome records.
 * {@code podsWait}: its pods never run ({@link #withWaitingPods()}).
 */
record TrainerCase(String name, String yaml, String trainJob, List<Step> steps, boolean terminal,
    boolean podsWait, Duration timeout) {

  static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** A wait for a condition, then a merge patch of the TrainJob. */
  record Step(String awaitCondition, String mergePatch) {
  }

  static TrainerCase ofYaml(String name, String yaml, String trainJob) {
    return new TrainerCase(name, yaml, trainJob, List.of(), true, false, TIMEOUT);
  }

  TrainerCase then(String awaitCondition, String mergePatch) {
    List<Step> more = new ArrayList<>(steps);
    more.add(new Step(awaitCondition, mergePatch));
    return new TrainerCase(name, yaml, trainJob, List.copyOf(more), terminal, podsWait, timeout);
  }

  /** Pods that wait for a scheduler the lab does not run: the case ends once the JobSet exists. */
  TrainerCase notTerminal() {
    return new TrainerCase(name, yaml, trainJob, steps, false, true, timeout);
  }

  /**
   * Pods that never run (they wait for a node pool or a scheduler the lab does not have): the TrainJob's status is
   * compared by its conditions alone and the children without their status, since what the Jobs' counters say
   * (and whether the TrainJob's {@code jobsStatus} was written yet) is the moment it was read: on the deadline
   * case, whether the JobSet controller had reported its Job active before the deadline passed, which on a busy
   * machine it had on one side and not on the other.
   */
  TrainerCase withWaitingPods() {
    return new TrainerCase(name, yaml, trainJob, steps, terminal, true, timeout);
  }

  /** A case expected to be refused: where a controller admits it, how long to wait for an end that may not come. */
  TrainerCase refused() {
    return new TrainerCase(name, yaml, trainJob, steps, terminal, podsWait, Duration.ofSeconds(15));
  }

  /** The case's namespace: its name, as a DNS label. */
  String namespace() {
    String label = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
    return ("d-" + label).length() > 63 ? ("d-" + label).substring(0, 63) : "d-" + label;
  }
}
