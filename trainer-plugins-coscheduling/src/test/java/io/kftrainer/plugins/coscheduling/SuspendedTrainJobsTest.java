package io.kftrainer.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder;
import io.kftrainer.framework.model.ObjectKey;
import io.kftrainer.framework.spi.EventMapper;
import io.kftrainer.framework.spi.SuspendedTrainJobs;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.InMemoryObjectLookup;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SuspendedTrainJobsTest {

  private static final InMemoryObjectLookup CLUSTER =
      new InMemoryObjectLookup(Fixtures.objects(Fixtures.resource("coscheduling/runtime-class-users.yaml")));

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a LimitRange requeues the suspended TrainJobs of its namespace only",
            SuspendedTrainJobs.IN_NAMESPACE, limitRange("team-a"),
            List.of(key("team-a", "suspended-cluster"), key("team-a", "suspended-local"),
                key("team-a", "suspended-plain"))),
        Arguments.of("a LimitRange in a namespace without suspended TrainJobs requeues nothing",
            SuspendedTrainJobs.IN_NAMESPACE, limitRange("team-c"), List.of()),
        Arguments.of("a RuntimeClass requeues the suspended TrainJobs of every runtime that uses it",
            SuspendedTrainJobs.USING_RUNTIME_CLASS, runtimeClass("gvisor"),
            List.of(key("team-a", "suspended-cluster"), key("team-b", "suspended-default-kind"),
                key("team-a", "suspended-local"))),
        Arguments.of("a RuntimeClass no runtime uses requeues nothing",
            SuspendedTrainJobs.USING_RUNTIME_CLASS, runtimeClass("kata"), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void trainJobsFor(String name, EventMapper mapper, HasMetadata changed, List<ObjectKey> expected) {
    assertThat(mapper.trainJobsFor(changed, CLUSTER)).containsExactlyElementsOf(expected);
  }

  private static LimitRange limitRange(String namespace) {
    return new LimitRangeBuilder().withNewMetadata().withName("defaults").withNamespace(namespace).endMetadata()
        .build();
  }

  private static RuntimeClass runtimeClass(String name) {
    return new RuntimeClassBuilder().withNewMetadata().withName(name).endMetadata().withHandler(name).build();
  }

  private static ObjectKey key(String namespace, String name) {
    return new ObjectKey(namespace, name);
  }
}
