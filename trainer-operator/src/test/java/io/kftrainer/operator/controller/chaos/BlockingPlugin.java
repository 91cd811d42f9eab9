package io.kftrainer.operator.controller.chaos;

import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforcePodSpec;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.Objects;

/**
 * Never returns for the TrainJobs labelled {@code chaos: block} (until interrupted, as a plugin blocked on I/O or a
 * lock usually is). Loaded from a jar by {@code BadPluginTest}.
 */
public final class BlockingPlugin implements EnforcePodSpec {

  @Override
  public String name() {
    return "Blocking";
  }

  @Override
  public int order() {
    return 1001;
  }

  @Override
  public void enforcePodSpec(BuildContext context) {
    Map<String, String> labels = Objects.requireNonNullElse(context.trainJob().getMetadata().getLabels(),
        Map.of());
    if ("block".equals(labels.get("chaos"))) {
      try {
        new CountDownLatch(1).await(); // never counted down: the call returns only when interrupted
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted");
      }
    }
  }
}
