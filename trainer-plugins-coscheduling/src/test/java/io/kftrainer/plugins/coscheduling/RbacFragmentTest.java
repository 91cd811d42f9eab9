package io.kftrainer.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.testkit.Fixtures;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The plugin's RBAC fragment must allow what its watches need: read every watched kind, write owned ones. */
class RbacFragmentTest {

  private static final ClusterRole ROLE = Fixtures.serialization().unmarshal(
      Fixtures.resource("META-INF/trainer/rbac/" + CoschedulingPlugin.NAME + ".yaml"), ClusterRole.class);
  private static final Set<String> READ = Set.of("get", "list", "watch");
  private static final Set<String> WRITE = Set.of("create", "update", "patch");

  static Stream<Watch> watches() {
    return new CoschedulingPlugin().watches().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("watches")
  void allowsWhatTheWatchNeeds(Watch watch) {
    String group = HasMetadata.getGroup(watch.type());
    String resource = HasMetadata.getPlural(watch.type());

    List<String> verbs = ROLE.getRules().stream()
        .filter(rule -> rule.getApiGroups().contains(group) && rule.getResources().contains(resource))
        .map(PolicyRule::getVerbs)
        .flatMap(List::stream)
        .toList();

    assertThat(verbs).as("verbs on %s.%s", resource, group).containsAll(READ);
    if (watch.relation() == Watch.Relation.OWNED) {
      assertThat(verbs).as("verbs on %s.%s", resource, group).containsAll(WRITE);
    }
  }
}
