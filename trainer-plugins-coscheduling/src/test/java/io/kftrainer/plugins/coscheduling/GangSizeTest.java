package io.kftrainer.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.kftrainer.framework.model.GangSize;
import io.kftrainer.framework.model.PodSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GangSizeTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no pod sets need no members and no resources", List.of(), 0, Map.of()),
        Arguments.of("pod sets without requests count members only",
            List.of(podSet("node", 4, Map.of()), podSet("launcher", 1, Map.of())), 5, Map.of()),
        Arguments.of("requests are multiplied by the count and summed per resource",
            List.of(podSet("launcher", 1, Map.of("cpu", "300m", "memory", "1Gi")),
                podSet("worker", 4, Map.of("cpu", "500m", "memory", "0.5Gi"))),
            5, Map.of("cpu", "2300m", "memory", "3Gi")),
        Arguments.of("a resource requested by one pod set only is still counted",
            List.of(podSet("node", 2, Map.of("cpu", "4", "nvidia.com/gpu", "8")),
                podSet("dataset-initializer", 1, Map.of("cpu", "1"))),
            3, Map.of("cpu", "9", "nvidia.com/gpu", "16")),
        Arguments.of("a pod set scaled to zero adds nothing",
            List.of(podSet("node", 0, Map.of("cpu", "1"))), 0, Map.of("cpu", "0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void of(String name, List<PodSet> podSets, int minMember, Map<String, String> minResources) {
    GangSize gang = GangSize.of(podSets);

    assertThat(gang.minMember()).isEqualTo(minMember);
    assertThat(gang.minResources()).containsExactlyInAnyOrderEntriesOf(quantities(minResources));
    assertThat(gang.minResources()).allSatisfy((resource, quantity) ->
        assertThat(quantity.toString()).as("canonical form of %s", resource).isEqualTo(minResources.get(resource)));
  }

  private static PodSet podSet(String name, int count, Map<String, String> requests) {
    return PodSet.builder().name(name).count(count).singlePodRequests(quantities(requests)).build();
  }

  private static Map<String, Quantity> quantities(Map<String, String> values) {
    return values.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> new Quantity(e.getValue())));
  }
}
