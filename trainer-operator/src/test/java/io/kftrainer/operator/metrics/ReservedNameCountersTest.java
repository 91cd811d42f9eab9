package io.kftrainer.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Counters named as the Go client names them, written in both formats a scraper may ask for. */
class ReservedNameCountersTest {

  @Test
  void writtenInThePrometheusTextFormatAndInOpenMetrics() {
    ReservedNameCounters counters = ReservedNameCounters.of(new SimpleMeterRegistry());
    counters.increment("kubeflow_trainer_trainjobs_created_total", "Total number of TrainJobs created.",
        Map.of("runtime", "TrainingRuntime", "namespace", "team-\"a\""));
    counters.increment("kubeflow_trainer_trainjobs_created_total", "Total number of TrainJobs created.",
        Map.of("runtime", "TrainingRuntime", "namespace", "team-\"a\""));

    StringBuilder text = new StringBuilder();
    counters.write(text, false);
    StringBuilder openMetrics = new StringBuilder();
    counters.write(openMetrics, true);

    assertThat(text.toString()).isEqualTo("""
        # HELP kubeflow_trainer_trainjobs_created_total Total number of TrainJobs created.
        # TYPE kubeflow_trainer_trainjobs_created_total counter
        kubeflow_trainer_trainjobs_created_total{namespace="team-\\"a\\"",runtime="TrainingRuntime"} 2.0
        """);
    assertThat(openMetrics.toString()).contains("# TYPE kubeflow_trainer_trainjobs_created counter\n",
        "kubeflow_trainer_trainjobs_created_total{namespace=");
  }

  @Test
  void oneSetPerRegistry() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    assertThat(ReservedNameCounters.of(registry)).isSameAs(ReservedNameCounters.of(registry))
        .isNotSameAs(ReservedNameCounters.of(new SimpleMeterRegistry()));
  }
}
