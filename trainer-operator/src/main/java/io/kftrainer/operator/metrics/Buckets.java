package io.kftrainer.operator.metrics;

import java.time.Duration;
import java.util.stream.DoubleStream;

/** Histogram buckets given in seconds, as Prometheus writes them, turned into Micrometer's durations. */
final class Buckets {

  private Buckets() {
  }

  static Duration[] durations(double[] seconds) {
    return DoubleStream.of(seconds).mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9))).toArray(Duration[]::new);
  }
}
