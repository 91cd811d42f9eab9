package io.kftrainer.local;

import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the training code last reported ({@code status.trainerStatus}) as {@code local} shows it: percentage, the
 * estimated time left, and the metrics, e.g. {@code 40% (about 12 s left) loss=0.031}.
 */
final class TrainerStatusLine {

  private TrainerStatusLine() {
  }

  /** The line for {@code status}; empty when it says nothing to show. */
  static Optional<String> of(TrainerStatus status) {
    if (status == null) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    if (status.getProgressPercentage() != null) {
      parts.add(status.getProgressPercentage() + "%");
    }
    Integer left = status.getEstimatedRemainingSeconds();
    boolean finished = status.getProgressPercentage() != null && status.getProgressPercentage() >= 100;
    if (left != null && left > 0) {
      parts.add("(about " + duration(left) + " left)");
    } else if (left != null && !finished) {
      // a fast training's first steps estimate the rest at 0 whole seconds: "about 0 s left" at 3% reads as a bug
      parts.add("(under 1 s left)");
    }
    if (status.getMetrics() != null) {
      for (Metric metric : status.getMetrics()) {
        parts.add(metric.getName() + "=" + metric.getValue());
      }
    }
    return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", parts));
  }

  /** Seconds under two minutes, minutes under two hours, else hours. */
  static String duration(int seconds) {
    if (seconds < 120) {
      return seconds + " s";
    }
    if (seconds < 7200) {
      return Math.round(seconds / 60.0) + " min";
    }
    return Math.round(seconds / 3600.0) + " h";
  }
}
