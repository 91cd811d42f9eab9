package io.kftrainer.plugins.jobset;

import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforcePodGroupPolicy;

/** A gang-scheduling plugin reduced to what the JobSet plugin sees of one: scheduler pod labels and annotations. */
final class TestingPodGroupPlugin implements EnforcePodGroupPolicy {

  @Override
  public String name() {
    return "TestingPodGroup";
  }

  @Override
  public int order() {
    return 200;
  }

  @Override
  public void enforcePodGroupPolicy(BuildContext context) {
    String name = context.trainJob().getMetadata().getName();
    context.info().schedulerPodLabels().put("scheduling.x-k8s.io/pod-group", name);
    context.info().schedulerPodAnnotations().put("scheduling.k8s.io/group-name", name);
  }
}
