package io.kftrainer.operator.controller.chaos;

import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforcePodSpec;
import java.util.Map;
import java.util.Objects;

/** Throws for the TrainJobs labelled {@code chaos: throw}. Loaded from a jar by {@code BadPluginTest}. */
public final class ThrowingPlugin implements EnforcePodSpec {

  @Override
  public String name() {
    return "Throwing";
  }

  @Override
  public int order() {
    return 1000;
  }

  @Override
  public void enforcePodSpec(BuildContext context) {
    Map<String, String> labels = Objects.requireNonNullElse(context.trainJob().getMetadata().getLabels(),
        Map.of());
    if ("throw".equals(labels.get("chaos"))) {
      throw new IllegalStateException("refusing " + context.trainJob().getMetadata().getName());
    }
  }
}
