package io.kftrainer.plugins.coscheduling;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.kftrainer.api.v1alpha1.CoschedulingPodGroupPolicySource;
import io.kftrainer.api.v1alpha1.PodGroupPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.GangSize;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.EnforcePodGroupPolicy;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.SuspendedTrainJobs;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import io.kftrainer.plugins.coscheduling.model.PodGroup;
import io.kftrainer.plugins.coscheduling.model.PodGroupSpec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Gang scheduling with the coscheduling plugin of kubernetes-sigs/scheduler-plugins, for runtimes with
 * {@code podGroupPolicy.coscheduling}: every pod of the TrainJob carries the label {@value #POD_GROUP_LABEL}
 * naming a PodGroup of the TrainJob's name, whose {@code minMember} and {@code minResources} cover all of its pods
 * ({@link GangSize}).
 *
 * <p>The PodGroup is built once: while it exists and the TrainJob runs, the builder returns nothing, so the
 * scheduler's view of a running gang never changes under it. A suspended TrainJob's PodGroup is rebuilt, so that
 * changes made while suspended (runtime patches, node counts) take effect on resume.
 *
 * <p>The PodGroup CRD is optional: without it the operator runs and this plugin's PodGroups are simply not
 * watched (installing the CRD is the cluster admin's part, as upstream). The PodGroup model
 * ({@code io.kftrainer.plugins.coscheduling.model}) is generated at build time from scheduler-plugins' CRD, which
 * this jar ships for local mode ({@code META-INF/trainer/crds/scheduling.x-k8s.io_podgroups.yaml}).
 */
@AutoService(Plugin.class)
public final class CoschedulingPlugin implements EnforcePodGroupPolicy, ComponentBuilder, WatchExtension {

  public static final String NAME = "CoScheduling";

  /** The label the coscheduling plugin groups pods by; its value is the PodGroup's name. */
  public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

  /** {@code scheduleTimeoutSeconds} when the policy leaves it unset (the API default). */
  public static final int DEFAULT_SCHEDULE_TIMEOUT_SECONDS = 60;

  private static final List<Watch> WATCHES = List.of(
      Watch.owned(PodGroup.class).optionalCrd(),
      Watch.referenced(LimitRange.class, SuspendedTrainJobs.IN_NAMESPACE),
      Watch.referenced(RuntimeClass.class, SuspendedTrainJobs.USING_RUNTIME_CLASS));

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 200;
  }

  @Override
  public List<Watch> watches() {
    return WATCHES;
  }

  @Override
  public void enforcePodGroupPolicy(BuildContext context) {
    if (policy(context.info()).isEmpty()) {
      return;
    }
    context.info().schedulerPodLabels().put(POD_GROUP_LABEL, context.trainJob().getMetadata().getName());
  }

  @Override
  public List<HasMetadata> build(BuildContext context) {
    Optional<CoschedulingPodGroupPolicySource> policy = policy(context.info());
    TrainJob trainJob = context.trainJob();
    if (policy.isEmpty() || (exists(context) && !isSuspended(trainJob))) {
      return List.of();
    }
    GangSize gang = GangSize.of(context.info().podSets());
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(gang.minMember());
    spec.setMinResources(gang.minResourcesAsIntOrString());
    spec.setScheduleTimeoutSeconds(Objects.requireNonNullElse(policy.get().getScheduleTimeoutSeconds(),
        DEFAULT_SCHEDULE_TIMEOUT_SECONDS));
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName(trainJob.getMetadata().getName());
    podGroup.setSpec(spec);
    return List.of(podGroup);
  }

  private static Optional<CoschedulingPodGroupPolicySource> policy(RuntimeInfo info) {
    return info.podGroupPolicy().map(PodGroupPolicy::getCoscheduling);
  }

  private static boolean exists(BuildContext context) {
    var meta = context.trainJob().getMetadata();
    return context.cluster().get(PodGroup.class, meta.getNamespace(), meta.getName()).isPresent();
  }

  private static boolean isSuspended(TrainJob trainJob) {
    return Boolean.TRUE.equals(trainJob.getSpec().getSuspend());
  }
}
