package io.kftrainer.plugins.volcano;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.testkit.Fixtures;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PriorityClassNamesTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("pod templates without a priority class name give none", List.of(), Optional.empty(),
            new String[] {null, null}),
        Arguments.of("an empty priority class name counts as unset", List.of(), Optional.empty(),
            new String[] {"", null}),
        Arguments.of("one pod template's priority class goes to the PodGroup", List.of("high-priority"),
            Optional.of("high-priority"), new String[] {"high-priority", null}),
        Arguments.of("the last pod template that names a priority class wins", List.of("low", "high"),
            Optional.of("high"), new String[] {"low", "high"}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void priorityClassNames(String name, List<String> all, Optional<String> forPodGroup, String[] perJob) {
    JobSetSpec template = template(perJob);

    assertThat(PriorityClassNames.of(template)).containsExactlyElementsOf(all);
    assertThat(PriorityClassNames.forPodGroup(template)).isEqualTo(forPodGroup);
  }

  private static JobSetSpec template(String... priorityClassNames) {
    JobSetSpec spec = Fixtures.runtime(Fixtures.resource("volcano/runtime.yaml")).spec().getTemplate().getSpec();
    for (int i = 0; i < priorityClassNames.length; i++) {
      spec.getReplicatedJobs().get(i).getTemplate().getSpec().getTemplate().getSpec()
          .setPriorityClassName(priorityClassNames[i]);
    }
    assertThat(spec.getReplicatedJobs()).hasSize(priorityClassNames.length);
    return spec;
  }
}
