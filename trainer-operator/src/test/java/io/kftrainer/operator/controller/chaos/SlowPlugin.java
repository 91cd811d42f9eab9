package io.kftrainer.operator.controller.chaos;

import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforcePodSpec;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.Objects;

/**
 * Takes 0.8 s, within the timeout, for the TrainJobs labelled {@code chaos: slow}. Loaded from a jar by
 * {@code BadPluginTest}.
 */
public final class SlowPlugin implements EnforcePodSpec {

  @Override
  public String name() {
    return "Slow";
  }

  @Override
  public int order() {
    return 1003;
  }

  @Override
  public void enforcePodSpec(BuildContext context) {
    Map<String, String> labels = Objects.requireNonNullElse(context.trainJob().getMetadata().getLabels(),
        Map.of());
    if ("slow".equals(labels.get("chaos"))) {
      try {
        // 0.8 s of "work": a wait nothing ends early but an interrupt
        new CountDownLatch(1).await(800, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
