package io.kftrainer.plugins.volcano;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.kftrainer.api.v1alpha1.CoschedulingPodGroupPolicySource;
import io.kftrainer.api.v1alpha1.NetworkTopology;
import io.kftrainer.api.v1alpha1.PodGroupPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.VolcanoPodGroupPolicySource;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.SuspendedTrainJobs;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.plugins.volcano.model.PodGroup;
import io.kftrainer.plugins.volcano.model.PodGroupSpec;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class VolcanoPluginTest {

  private static final VolcanoPlugin PLUGIN = new VolcanoPlugin();
  private static final String RUNTIME = "volcano/runtime.yaml";
  private static final String MINIMAL_RUNTIME = "volcano/runtime-minimal.yaml";
  private static final String TRAINJOB = "volcano/trainjob.yaml";
  private static final String QUEUE_PATCH_TRAINJOB = "volcano/trainjob-queue-patch.yaml";
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";
  private static final FieldPath QUEUE_PATH = FieldPath.of("spec", "annotations").key(QUEUE);
  private static final FieldPath PRIORITY_CLASS_PATH = FieldPath.of("spec", "templateSpec", "priorityClassName");

  static Stream<Arguments> groupNameCases() {
    return Stream.of(
        Arguments.of("Volcano annotates every pod with the TrainJob's pod group", RUNTIME, noChange(),
            Map.of("scheduling.k8s.io/group-name", "volcano-job")),
        Arguments.of("a runtime without a pod group policy gets no annotation", RUNTIME, podGroupPolicy(null),
            Map.of()),
        Arguments.of("a coscheduling runtime gets no Volcano annotation", RUNTIME, coscheduling(), Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("groupNameCases")
  void enforcePodGroupPolicy(String name, String runtimeFile, Consumer<RuntimeSource> change,
      Map<String, String> expectedAnnotations) {
    BuildContext context = TestPipeline.of(PLUGIN).context(runtime(runtimeFile, change), trainJob(TRAINJOB, false));

    PLUGIN.enforcePodGroupPolicy(context);

    assertThat(context.info().schedulerPodAnnotations()).containsExactlyInAnyOrderEntriesOf(expectedAnnotations);
    assertThat(context.info().schedulerPodLabels()).isEmpty();
  }

  static Stream<Arguments> buildCases() {
    return Stream.of(
        Arguments.of("a new TrainJob gets a PodGroup in the runtime's queue with its priority class and topology",
            RUNTIME, noChange(), TRAINJOB, false, false, Optional.of("golden/podgroup-queue-priority-topology.yaml")),
        Arguments.of("a runtime patch of the template annotations moves the PodGroup to another queue",
            RUNTIME, noChange(), QUEUE_PATCH_TRAINJOB, false, false, Optional.of("golden/podgroup-patched-queue.yaml")),
        Arguments.of("a bare Volcano policy sets neither queue, priority class nor network topology",
            MINIMAL_RUNTIME, noChange(), TRAINJOB, false, false, Optional.of("golden/podgroup-minimal.yaml")),
        Arguments.of("an existing PodGroup is left as it is while the TrainJob runs",
            RUNTIME, noChange(), TRAINJOB, false, true, Optional.empty()),
        Arguments.of("an existing PodGroup is rebuilt while the TrainJob is suspended",
            RUNTIME, noChange(), TRAINJOB, true, true, Optional.of("golden/podgroup-queue-priority-topology.yaml")),
        Arguments.of("a runtime without a pod group policy gets no PodGroup",
            RUNTIME, podGroupPolicy(null), TRAINJOB, false, false, Optional.empty()),
        Arguments.of("a coscheduling runtime gets no Volcano PodGroup",
            RUNTIME, coscheduling(), TRAINJOB, false, false, Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("buildCases")
  void build(String name, String runtimeFile, Consumer<RuntimeSource> change, String trainJobFile,
      boolean suspended, boolean podGroupExists, Optional<String> golden) {
    TrainJob trainJob = trainJob(trainJobFile, suspended);
    JsonNode before = Yaml.tree(trainJob);
    TestPipeline pipeline = TestPipeline.of(PLUGIN);
    if (podGroupExists) {
      pipeline = pipeline.withCluster(existingPodGroup());
    }

    List<HasMetadata> objects = pipeline.objects(runtime(runtimeFile, change), trainJob);

    if (golden.isPresent()) {
      Golden.assertMatches(objects, golden.get());
    } else {
      assertThat(objects).isEmpty();
    }
    assertThat(Yaml.tree(trainJob)).isEqualTo(before);
  }

  static Stream<Arguments> networkTopologyCases() {
    return Stream.of(
        Arguments.of("no network topology in the policy leaves the PodGroup without one", null, null),
        Arguments.of("a soft constraint over two tiers is passed on",
            new NetworkTopology().withMode("soft").withHighestTierAllowed(2),
            Map.of("mode", "soft", "highestTierAllowed", 2L)),
        Arguments.of("an unset mode and tier take the API defaults hard and 1",
            new NetworkTopology(), Map.of("mode", "hard", "highestTierAllowed", 1L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("networkTopologyCases")
  void networkTopology(String name, NetworkTopology policy, Map<String, Object> expected) {
    RuntimeSource runtime = runtime(RUNTIME,
        podGroupPolicy(new PodGroupPolicy().withVolcano(new VolcanoPodGroupPolicySource()
            .withNetworkTopology(policy))));

    PodGroup podGroup = (PodGroup) TestPipeline.of(PLUGIN).objects(runtime, trainJob(TRAINJOB, false)).get(0);

    assertThat(Yaml.tree(podGroup.getSpec().getNetworkTopology())).isEqualTo(Yaml.tree(expected));
  }

  @Test
  void podGroupSizesTheWholeGangInQueueQ1() {
    PodGroup podGroup = (PodGroup) TestPipeline.of(PLUGIN)
        .objects(runtime(RUNTIME, noChange()), trainJob(TRAINJOB, false)).get(0);

    assertThat(podGroup.getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
    assertThat(podGroup.getMetadata().getName()).isEqualTo("volcano-job");
    assertThat(podGroup.getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(podGroup.getSpec().getMinMember()).isEqualTo(5);
    assertThat(quantity(podGroup.getSpec().getMinResources().get("cpu")).getNumericalAmount())
        .isEqualByComparingTo("2.3");
    assertThat(quantity(podGroup.getSpec().getMinResources().get("memory")).getNumericalAmount())
        .isEqualByComparingTo(String.valueOf(3L * 1024 * 1024 * 1024));
    assertThat(podGroup.getSpec().getQueue()).isEqualTo("q1");
    assertThat(podGroup.getSpec().getPriorityClassName()).isEqualTo("high-priority");
    assertThat(podGroup.getSpec().getMinTaskMember()).isNull();
  }

  static Stream<Arguments> validationCases() {
    return Stream.of(
        Arguments.of("a runtime with a queue and an existing priority class is valid",
            noChange(), List.of(priorityClass("high-priority")), List.of()),
        Arguments.of("an empty queue name is rejected",
            annotation(QUEUE, ""), List.of(priorityClass("high-priority")),
            List.of(FieldError.invalid(QUEUE_PATH, "", "Volcano queue name must not be empty"))),
        Arguments.of("a runtime without a queue annotation is valid",
            withoutAnnotation(QUEUE), List.of(priorityClass("high-priority")), List.of()),
        Arguments.of("a priority class that does not exist is rejected",
            noChange(), List.of(),
            List.of(missingPriorityClass("high-priority"))),
        Arguments.of("the built-in system-node-critical priority class needs no PriorityClass object",
            priorityClasses("system-node-critical", null), List.of(), List.of()),
        Arguments.of("the built-in system-cluster-critical priority class needs no PriorityClass object",
            priorityClasses(null, "system-cluster-critical"), List.of(), List.of()),
        Arguments.of("a built-in priority class does not excuse a missing one in a later pod template",
            priorityClasses("system-cluster-critical", "missing"), List.of(),
            List.of(missingPriorityClass("missing"))),
        Arguments.of("every problem is reported, each missing priority class once",
            annotation(QUEUE, "").andThen(priorityClasses("missing", "missing")), List.of(),
            List.of(FieldError.invalid(QUEUE_PATH, "", "Volcano queue name must not be empty"),
                missingPriorityClass("missing"))),
        Arguments.of("a runtime without the Volcano policy is not validated",
            coscheduling().andThen(annotation(QUEUE, "")), List.of(), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validationCases")
  void validate(String name, Consumer<RuntimeSource> change, List<HasMetadata> cluster,
      List<FieldError> expectedErrors) {
    ValidationResult result = TestPipeline.of(PLUGIN).withCluster(cluster.toArray(HasMetadata[]::new))
        .validate(runtime(RUNTIME, change), trainJob(TRAINJOB, false));

    assertThat(result.errors()).containsExactlyElementsOf(expectedErrors);
    assertThat(result.warnings()).isEmpty();
  }

  @Test
  void missingPriorityClassMessageIsUpstreams() {
    assertThat(missingPriorityClass("non-existent").toString()).isEqualTo("spec.templateSpec.priorityClassName: "
        + "PriorityClass \"non-existent\" doesn't exist: priorityclasses.scheduling.k8s.io \"non-existent\" not found");
    assertThat(FieldError.invalid(QUEUE_PATH, "", "Volcano queue name must not be empty").toString())
        .isEqualTo("spec.annotations[scheduling.volcano.sh/queue-name]: Volcano queue name must not be empty");
  }

  @Test
  void validatesWithTheQueueOfTheRuntimePatches() {
    TrainJob trainJob = trainJob(QUEUE_PATCH_TRAINJOB, false);
    trainJob.getSpec().getRuntimePatches().get(0).getTrainingRuntimeSpec().getTemplate().getMetadata()
        .getAnnotations().put(QUEUE, "");

    ValidationResult result = TestPipeline.of(PLUGIN).withCluster(priorityClass("high-priority"))
        .validate(runtime(RUNTIME, noChange()), trainJob);

    assertThat(result.errors())
        .containsExactly(FieldError.invalid(QUEUE_PATH, "", "Volcano queue name must not be empty"));
  }

  @Test
  void watchesItsPodGroupsPriorityClassesAndRequeuesSuspendedJobsOnLimitRangeAndRuntimeClassEvents() {
    assertThat(PLUGIN.watches()).containsExactly(
        new Watch(PodGroup.class, Watch.Relation.OWNED, Optional.empty(), true),
        Watch.referenced(LimitRange.class, SuspendedTrainJobs.IN_NAMESPACE),
        Watch.referenced(RuntimeClass.class, SuspendedTrainJobs.USING_RUNTIME_CLASS),
        Watch.referenced(PriorityClass.class));
    assertThat(PLUGIN.watches()).isEqualTo(new VolcanoPlugin().watches());
  }

  @Test
  void isDiscoveredAsThePluginNamedVolcanoWithOrder210() {
    List<Plugin> plugins = ServiceLoader.load(Plugin.class).stream().map(ServiceLoader.Provider::get).toList();

    assertThat(plugins).filteredOn(p -> p instanceof VolcanoPlugin).singleElement()
        .satisfies(p -> {
          assertThat(p.name()).isEqualTo("Volcano").isEqualTo(VolcanoPlugin.NAME);
          assertThat(p.order()).isEqualTo(210);
        });
  }

  private static RuntimeSource runtime(String file, Consumer<RuntimeSource> change) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource(file));
    change.accept(runtime);
    return runtime;
  }

  private static TrainJob trainJob(String file, boolean suspended) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource(file));
    trainJob.getSpec().setSuspend(suspended);
    return trainJob;
  }

  private static Consumer<RuntimeSource> noChange() {
    return runtime -> { };
  }

  private static Consumer<RuntimeSource> podGroupPolicy(PodGroupPolicy policy) {
    return runtime -> runtime.spec().setPodGroupPolicy(policy);
  }

  private static Consumer<RuntimeSource> coscheduling() {
    return podGroupPolicy(new PodGroupPolicy().withCoscheduling(new CoschedulingPodGroupPolicySource()));
  }

  private static Consumer<RuntimeSource> annotation(String key, String value) {
    return runtime -> runtime.spec().getTemplate().getMetadata().getAnnotations().put(key, value);
  }

  private static Consumer<RuntimeSource> withoutAnnotation(String key) {
    return runtime -> runtime.spec().getTemplate().getMetadata().getAnnotations().remove(key);
  }

  /** Sets the priority class of the launcher and node pod templates (null: unset). */
  private static Consumer<RuntimeSource> priorityClasses(String launcher, String node) {
    return runtime -> {
      List<String> names = new ArrayList<>();
      names.add(launcher);
      names.add(node);
      var jobs = runtime.spec().getTemplate().getSpec().getReplicatedJobs();
      for (int i = 0; i < jobs.size(); i++) {
        jobs.get(i).getTemplate().getSpec().getTemplate().getSpec().setPriorityClassName(names.get(i));
      }
    };
  }

  private static PriorityClass priorityClass(String name) {
    return new PriorityClassBuilder().withNewMetadata().withName(name).endMetadata().withValue(1000).build();
  }

  private static FieldError missingPriorityClass(String name) {
    return FieldError.invalid(PRIORITY_CLASS_PATH, name, "PriorityClass \"" + name
        + "\" doesn't exist: priorityclasses.scheduling.k8s.io \"" + name + "\" not found");
  }

  private static PodGroup existingPodGroup() {
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("volcano-job");
    podGroup.getMetadata().setNamespace("team-a");
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(1);
    spec.setQueue("old");
    podGroup.setSpec(spec);
    return podGroup;
  }

  /** The model types {@code minResources} as the CRD does, int-or-string: the value is a quantity's text. */
  private static Quantity quantity(IntOrString value) {
    return new Quantity(value.getStrVal());
  }
}
