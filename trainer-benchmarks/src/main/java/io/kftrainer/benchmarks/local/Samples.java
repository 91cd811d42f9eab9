package io.kftrainer.benchmarks.local;

import java.util.ArrayList;
import java.util.List;

/** Durations measured one by one, in nanoseconds; percentiles by nearest rank. */
final class Samples {

  private final List<Long> nanos = new ArrayList<>();

  void add(long durationNanos) {
    nanos.add(durationNanos);
  }

  int size() {
    return nanos.size();
  }

  /** The {@code p}th percentile in milliseconds (nearest rank); NaN without samples. */
  double millis(double p) {
    if (nanos.isEmpty()) {
      return Double.NaN;
    }
    List<Long> sorted = new ArrayList<>(nanos);
    sorted.sort(Long::compare);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1))) / 1e6;
  }

  double p50() {
    return millis(50);
  }
}
