package io.kftrainer.operator.app;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.framework.spi.ObjectLookup;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * The operator's own metric next to JOSDK's: gauge {@value #NAME}, the number of TrainJobs (in the watched
 * namespaces) whose condition {@code condition} is true, for each of {@code Created}, {@code Suspended},
 * {@code Complete} and {@code Failed}. Computed from the informer cache when scraped.
 */
final class TrainJobMetrics {

  static final String NAME = "trainer.trainjobs";
  static final String CONDITION_TAG = "condition";
  static final List<String> CONDITIONS = List.of(TrainerConstants.CONDITION_CREATED,
      TrainerConstants.CONDITION_SUSPENDED, TrainerConstants.CONDITION_COMPLETE, TrainerConstants.CONDITION_FAILED);

  private TrainJobMetrics() {
  }

  static void register(MeterRegistry registry, ObjectLookup cache) {
    for (String condition : CONDITIONS) {
      Gauge.builder(NAME, cache, lookup -> count(lookup, condition))
          .description("TrainJobs whose condition is true, by condition type")
          .tag(CONDITION_TAG, condition)
          .register(registry);
    }
  }

  private static double count(ObjectLookup cache, String condition) {
    return cache.list(TrainJob.class, null).stream()
        .filter(trainJob -> trainJob.getStatus() != null)
        .filter(trainJob -> Conditions.isTrue(trainJob.getStatus().getConditions(), condition))
        .count();
  }
}
