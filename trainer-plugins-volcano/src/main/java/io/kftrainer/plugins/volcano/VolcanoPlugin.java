package io.kftrainer.plugins.volcano;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.kftrainer.api.v1alpha1.NetworkTopology;
import io.kftrainer.api.v1alpha1.PodGroupPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.VolcanoPodGroupPolicySource;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.GangSize;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforcePodGroupPolicy;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.SuspendedTrainJobs;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import io.kftrainer.plugins.volcano.model.PodGroup;
import io.kftrainer.plugins.volcano.model.PodGroupSpec;
import io.kftrainer.plugins.volcano.model.podgroupspec.NetworkTopology.Mode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Gang scheduling with Volcano, for runtimes with {@code podGroupPolicy.volcano}: every pod of the TrainJob carries
 * the annotation {@value #GROUP_NAME_ANNOTATION} naming a Volcano PodGroup of the TrainJob's name, whose
 * {@code minMember} and {@code minResources} cover all of its pods ({@link GangSize}), in the queue named by the
 * runtime's {@value #QUEUE_NAME_ANNOTATION} annotation (which runtime patches may override), with the pods'
 * priority class and the policy's network topology.
 *
 * <p>The PodGroup is built once: while it exists and the TrainJob runs, the builder returns nothing, so Volcano's
 * view of a running gang never changes under it. A suspended TrainJob's PodGroup is rebuilt.
 *
 * <p>The PodGroup CRD is optional: without it the operator runs and this plugin's PodGroups are simply not
 * watched. The PodGroup model ({@code io.kftrainer.plugins.volcano.model}) is generated at build time from Volcano's
 * CRD, which this jar ships for local mode ({@code META-INF/trainer/crds/scheduling.volcano.sh_podgroups.yaml}).
 */
@AutoService(Plugin.class)
public final class VolcanoPlugin implements CustomValidation, EnforcePodGroupPolicy, ComponentBuilder,
    WatchExtension {

  public static final String NAME = "Volcano";

  /** The pod annotation Volcano groups pods by; its value is the PodGroup's name. */
  public static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";

  /** The runtime template annotation naming the Volcano queue of the PodGroup. */
  public static final String QUEUE_NAME_ANNOTATION = "scheduling.volcano.sh/queue-name";

  /** {@code networkTopology.mode} when the policy leaves it unset (the API default). */
  public static final String DEFAULT_NETWORK_TOPOLOGY_MODE = "hard";

  /** {@code networkTopology.highestTierAllowed} when the policy leaves it unset (the API default). */
  public static final int DEFAULT_HIGHEST_TIER_ALLOWED = 1;

  private static final List<Watch> WATCHES = List.of(
      Watch.owned(PodGroup.class).optionalCrd(),
      Watch.referenced(LimitRange.class, SuspendedTrainJobs.IN_NAMESPACE),
      Watch.referenced(RuntimeClass.class, SuspendedTrainJobs.USING_RUNTIME_CLASS),
      Watch.referenced(PriorityClass.class));

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 210;
  }

  @Override
  public List<Watch> watches() {
    return WATCHES;
  }

  /**
   * Rejects an empty queue annotation and priority classes that do not exist, with upstream's paths and messages.
   * Each missing priority class is reported once, however many pod templates name it.
   */
  @Override
  public ValidationResult validate(ValidationContext context) {
    RuntimeInfo info = context.info();
    if (policy(info).isEmpty()) {
      return ValidationResult.ok();
    }
    List<FieldError> errors = new ArrayList<>();
    if ("".equals(info.annotations().get(QUEUE_NAME_ANNOTATION))) {
      errors.add(FieldError.invalid(FieldPath.of("spec", "annotations").key(QUEUE_NAME_ANNOTATION), "",
          "Volcano queue name must not be empty"));
    }
    for (String name : new LinkedHashSet<>(PriorityClassNames.of(info.template()))) {
      if (!PriorityClassNames.BUILT_IN.contains(name) && !exists(context.cluster(), name)) {
        errors.add(FieldError.invalid(FieldPath.of("spec", "templateSpec", "priorityClassName"), name,
            "PriorityClass \"" + name + "\" doesn't exist: priorityclasses.scheduling.k8s.io \"" + name
                + "\" not found"));
      }
    }
    return ValidationResult.of(errors);
  }

  @Override
  public void enforcePodGroupPolicy(BuildContext context) {
    if (policy(context.info()).isEmpty()) {
      return;
    }
    context.info().schedulerPodAnnotations().put(GROUP_NAME_ANNOTATION, context.trainJob().getMetadata().getName());
  }

  @Override
  public List<HasMetadata> build(BuildContext context) {
    RuntimeInfo info = context.info();
    Optional<VolcanoPodGroupPolicySource> policy = policy(info);
    TrainJob trainJob = context.trainJob();
    if (policy.isEmpty() || (exists(context) && !isSuspended(trainJob))) {
      return List.of();
    }
    GangSize gang = GangSize.of(info.podSets());
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(gang.minMember());
    spec.setMinResources(gang.minResourcesAsIntOrString());
    // set even when absent: the model carries the CRD's default "default", which Volcano applies itself
    spec.setQueue(info.annotations().get(QUEUE_NAME_ANNOTATION));
    spec.setPriorityClassName(PriorityClassNames.forPodGroup(info.template()).orElse(null));
    spec.setNetworkTopology(networkTopology(policy.get().getNetworkTopology()));
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName(trainJob.getMetadata().getName());
    podGroup.setSpec(spec);
    return List.of(podGroup);
  }

  private static io.kftrainer.plugins.volcano.model.podgroupspec.NetworkTopology networkTopology(
      NetworkTopology topology) {
    if (topology == null) {
      return null;
    }
    var spec = new io.kftrainer.plugins.volcano.model.podgroupspec.NetworkTopology();
    spec.setMode(mode(Objects.requireNonNullElse(topology.getMode(), DEFAULT_NETWORK_TOPOLOGY_MODE)));
    spec.setHighestTierAllowed(Objects.requireNonNullElse(topology.getHighestTierAllowed(),
        DEFAULT_HIGHEST_TIER_ALLOWED).longValue());
    return spec;
  }

  /** The runtime's mode, which the runtime CRD's enum limits to the values Volcano's CRD has. */
  private static Mode mode(String mode) {
    return Arrays.stream(Mode.values()).filter(value -> value.getValue().equals(mode)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("podGroupPolicy.volcano.networkTopology.mode: unsupported "
            + "value \"" + mode + "\": supported values: \"hard\", \"soft\""));
  }

  private static Optional<VolcanoPodGroupPolicySource> policy(RuntimeInfo info) {
    return info.podGroupPolicy().map(PodGroupPolicy::getVolcano);
  }

  private static boolean exists(ObjectLookup cluster, String priorityClassName) {
    return cluster.get(PriorityClass.class, null, priorityClassName).isPresent();
  }

  private static boolean exists(BuildContext context) {
    var meta = context.trainJob().getMetadata();
    return context.cluster().get(PodGroup.class, meta.getNamespace(), meta.getName()).isPresent();
  }

  private static boolean isSuspended(TrainJob trainJob) {
    return Boolean.TRUE.equals(trainJob.getSpec().getSuspend());
  }
}
