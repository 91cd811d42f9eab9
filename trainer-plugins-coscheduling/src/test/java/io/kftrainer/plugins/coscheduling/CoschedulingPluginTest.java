package io.kftrainer.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.kftrainer.api.v1alpha1.CoschedulingPodGroupPolicySource;
import io.kftrainer.api.v1alpha1.PodGroupPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.VolcanoPodGroupPolicySource;
import io.kftrainer.framework.model.Quantities;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.SuspendedTrainJobs;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.plugins.coscheduling.model.PodGroup;
import io.kftrainer.plugins.coscheduling.model.PodGroupSpec;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CoschedulingPluginTest {

  private static final CoschedulingPlugin PLUGIN = new CoschedulingPlugin();
  private static final PodGroupPolicy COSCHEDULING_30S =
      new PodGroupPolicy().withCoscheduling(new CoschedulingPodGroupPolicySource().withScheduleTimeoutSeconds(30));
  private static final PodGroupPolicy COSCHEDULING_DEFAULTS =
      new PodGroupPolicy().withCoscheduling(new CoschedulingPodGroupPolicySource());
  private static final PodGroupPolicy VOLCANO =
      new PodGroupPolicy().withVolcano(new VolcanoPodGroupPolicySource());

  static Stream<Arguments> podGroupLabelCases() {
    return Stream.of(
        Arguments.of("coscheduling labels every pod with the TrainJob's pod group", COSCHEDULING_30S,
            Map.of("scheduling.x-k8s.io/pod-group", "gang-job")),
        Arguments.of("a runtime without a pod group policy gets no label", null, Map.of()),
        Arguments.of("a Volcano runtime gets no coscheduling label", VOLCANO, Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podGroupLabelCases")
  void enforcePodGroupPolicy(String name, PodGroupPolicy policy, Map<String, String> expectedLabels) {
    BuildContext context = TestPipeline.of(PLUGIN).context(runtime(policy), trainJob(false));

    PLUGIN.enforcePodGroupPolicy(context);

    assertThat(context.info().schedulerPodLabels()).containsExactlyInAnyOrderEntriesOf(expectedLabels);
    assertThat(context.info().schedulerPodAnnotations()).isEmpty();
  }

  static Stream<Arguments> buildCases() {
    return Stream.of(
        Arguments.of("a new TrainJob gets a PodGroup covering every pod of every pod set",
            COSCHEDULING_30S, false, false, Optional.of("golden/podgroup-multiple-podsets.yaml")),
        Arguments.of("scheduleTimeoutSeconds defaults to 60 when the policy leaves it unset",
            COSCHEDULING_DEFAULTS, false, false, Optional.of("golden/podgroup-default-timeout.yaml")),
        Arguments.of("an existing PodGroup is left as it is while the TrainJob runs",
            COSCHEDULING_30S, false, true, Optional.empty()),
        Arguments.of("an existing PodGroup is rebuilt while the TrainJob is suspended",
            COSCHEDULING_30S, true, true, Optional.of("golden/podgroup-multiple-podsets.yaml")),
        Arguments.of("a suspended TrainJob without a PodGroup gets one",
            COSCHEDULING_30S, true, false, Optional.of("golden/podgroup-multiple-podsets.yaml")),
        Arguments.of("a runtime without a pod group policy gets no PodGroup",
            null, false, false, Optional.empty()),
        Arguments.of("a Volcano runtime gets no coscheduling PodGroup",
            VOLCANO, false, false, Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("buildCases")
  void build(String name, PodGroupPolicy policy, boolean suspended, boolean podGroupExists,
      Optional<String> golden) {
    TrainJob trainJob = trainJob(suspended);
    JsonNode before = Yaml.tree(trainJob);
    TestPipeline pipeline = TestPipeline.of(PLUGIN);
    if (podGroupExists) {
      pipeline = pipeline.withCluster(existingPodGroup());
    }

    List<HasMetadata> objects = pipeline.objects(runtime(policy), trainJob);

    if (golden.isPresent()) {
      Golden.assertMatches(objects, golden.get());
    } else {
      assertThat(objects).isEmpty();
    }
    assertThat(Yaml.tree(trainJob)).isEqualTo(before);
  }

  @Test
  void minResourcesAreTheNumericSumOfEveryPodsRequests() {
    List<HasMetadata> objects = TestPipeline.of(PLUGIN).objects(runtime(COSCHEDULING_30S), trainJob(false));

    assertThat(objects).singleElement().isInstanceOf(PodGroup.class);
    PodGroupSpec spec = ((PodGroup) objects.get(0)).getSpec();
    assertThat(spec.getMinMember()).isEqualTo(3);
    assertThat(spec.getScheduleTimeoutSeconds()).isEqualTo(30);
    assertThat(spec.getMinResources()).containsOnlyKeys("cpu", "memory");
    assertThat(amount(spec.getMinResources().get("cpu"))).isEqualByComparingTo("1.25");
    assertThat(amount(spec.getMinResources().get("memory")))
        .isEqualByComparingTo(new BigDecimal(2.5 * 1024 * 1024 * 1024));
  }

  @Test
  void podGroupIsAChildOfTheTrainJobInItsNamespace() {
    PodGroup podGroup = (PodGroup) TestPipeline.of(PLUGIN)
        .objects(runtime(COSCHEDULING_30S), trainJob(false)).get(0);

    assertThat(podGroup.getApiVersion()).isEqualTo("scheduling.x-k8s.io/v1alpha1");
    assertThat(podGroup.getKind()).isEqualTo("PodGroup");
    assertThat(podGroup.getMetadata().getName()).isEqualTo("gang-job");
    assertThat(podGroup.getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(podGroup.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(ref -> {
          assertThat(ref.getKind()).isEqualTo("TrainJob");
          assertThat(ref.getController()).isTrue();
        });
  }

  @Test
  void watchesItsPodGroupsAndRequeuesSuspendedJobsOnLimitRangeAndRuntimeClassEvents() {
    assertThat(PLUGIN.watches()).containsExactly(
        new Watch(PodGroup.class, Watch.Relation.OWNED, Optional.empty(), true),
        Watch.referenced(LimitRange.class, SuspendedTrainJobs.IN_NAMESPACE),
        Watch.referenced(RuntimeClass.class, SuspendedTrainJobs.USING_RUNTIME_CLASS));
    assertThat(PLUGIN.watches()).isEqualTo(new CoschedulingPlugin().watches());
  }

  @Test
  void isDiscoveredAsThePluginNamedCoSchedulingWithOrder200() {
    List<Plugin> plugins = ServiceLoader.load(Plugin.class).stream().map(ServiceLoader.Provider::get).toList();

    assertThat(plugins).filteredOn(p -> p instanceof CoschedulingPlugin).singleElement()
        .satisfies(p -> {
          assertThat(p.name()).isEqualTo("CoScheduling").isEqualTo(CoschedulingPlugin.NAME);
          assertThat(p.order()).isEqualTo(200);
        });
  }

  private static RuntimeSource runtime(PodGroupPolicy policy) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource("coscheduling/runtime.yaml"));
    runtime.spec().setPodGroupPolicy(policy);
    return runtime;
  }

  private static TrainJob trainJob(boolean suspended) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("coscheduling/trainjob.yaml"));
    trainJob.getSpec().setSuspend(suspended);
    return trainJob;
  }

  private static PodGroup existingPodGroup() {
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("gang-job");
    podGroup.getMetadata().setNamespace("team-a");
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(1);
    spec.setScheduleTimeoutSeconds(5);
    podGroup.setSpec(spec);
    return podGroup;
  }

  /** The model types {@code minResources} as the CRD does, int-or-string: the value is a quantity's text. */
  private static BigDecimal amount(IntOrString quantity) {
    return Quantities.amount(new Quantity(quantity.getStrVal()));
  }
}
