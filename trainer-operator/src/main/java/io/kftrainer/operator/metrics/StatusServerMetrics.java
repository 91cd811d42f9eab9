package io.kftrainer.operator.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.IntConsumer;

/**
 * {@code kubeflow_trainer_status_server_reports_total{result}}: the status server's answers to the training code's
 * reports, by {@code result}: {@code accepted} (200), {@code rate_limited} (429: the TrainJob reports faster than
 * its limit) or {@code rejected} (any other: unauthenticated, forbidden, invalid, unknown TrainJob, failed write).
 * All three exist from the start.
 */
public final class StatusServerMetrics implements IntConsumer {

  private final Counter accepted;
  private final Counter rejected;
  private final Counter rateLimited;

  public StatusServerMetrics(MeterRegistry registry) {
    accepted = counter(registry, "accepted");
    rejected = counter(registry, "rejected");
    rateLimited = counter(registry, "rate_limited");
  }

  private static Counter counter(MeterRegistry registry, String result) {
    return Counter.builder("kubeflow.trainer.status.server.reports")
        .description("Reports of training progress to the status server, by result.")
        .tag("result", result).register(registry);
  }

  /** An answer's HTTP status. */
  @Override
  public void accept(int code) {
    if (code >= 200 && code < 300) {
      accepted.increment();
    } else if (code == 429) {
      rateLimited.increment();
    } else {
      rejected.increment();
    }
  }
}
