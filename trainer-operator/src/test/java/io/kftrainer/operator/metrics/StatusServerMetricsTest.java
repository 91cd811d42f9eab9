package io.kftrainer.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The status server's answers, counted by what they mean to the training code. */
class StatusServerMetricsTest {

  @Test
  void answersAreAcceptedRateLimitedOrRejected() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StatusServerMetrics metrics = new StatusServerMetrics(registry);

    for (int code : new int[] {200, 200, 429, 401, 403, 422, 500}) {
      metrics.accept(code);
    }

    assertThat(count(registry, "accepted")).isEqualTo(2);
    assertThat(count(registry, "rate_limited")).isEqualTo(1);
    assertThat(count(registry, "rejected")).isEqualTo(4);
  }

  private static double count(SimpleMeterRegistry registry, String result) {
    return registry.get("kubeflow.trainer.status.server.reports").tag("result", result).counter().count();
  }
}
