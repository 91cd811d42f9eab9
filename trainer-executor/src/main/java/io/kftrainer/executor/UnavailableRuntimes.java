package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;

/**
 * Pods whose runtime this machine does not have, refused before anything runs, as {@link ImageReference} refuses
 * an unparseable image. Images are never pulled here, so a pod runs with this machine's tools; a runtime that no
 * Debian package provides cannot run, and trying would be worse than failing:
 *
 * <ul>
 *   <li><b>Flux</b> (the Flux plugin's pods, recognised by their init container {@value #FLUX_INSTALLER}, a name the
 *       plugin reserves): Flux is not packaged in Debian. Its scripts would copy a Flux view that is not there into
 *       this machine's {@code /opt/software}, the lead broker would run nothing, and the follower brokers retry
 *       {@code flux start} every 15 s forever: the TrainJob would hang.</li>
 * </ul>
 *
 * <p>The pod fails with {@link #REASON} and a message naming the runtime and what to do; the executor's Job and
 * JobSet messages carry it to the TrainJob's {@code Failed} condition.
 */
final class UnavailableRuntimes {

  static final String REASON = "RuntimeUnavailable";
  static final String FLUX_INSTALLER = "flux-installer";

  private UnavailableRuntimes() {
  }

  /** Why this machine cannot run the pod; empty when it can try. */
  static Optional<String> of(Pod pod) {
    List<Container> initContainers = Optional.ofNullable(pod.getSpec().getInitContainers()).orElse(List.of());
    if (initContainers.stream().anyMatch(c -> FLUX_INSTALLER.equals(c.getName()))) {
      return Optional.of("the local executor cannot run Flux (init container " + FLUX_INSTALLER + " of the Flux "
          + "plugin): Flux is not packaged in Debian, so this machine has no flux command; run this TrainJob on a "
          + "cluster, or render its objects with 'trainer render'");
    }
    return Optional.empty();
  }
}
