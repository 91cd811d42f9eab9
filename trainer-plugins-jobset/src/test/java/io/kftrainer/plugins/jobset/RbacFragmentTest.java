package io.kftrainer.plugins.jobset;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.testkit.Fixtures;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plugin's RBAC fragment must allow what its watches need (read every watched kind, write owned ones), and the
 * deletion of a JobSet whose TrainJob exceeded its deadline.
 */
class RbacFragmentTest {

  private static final ClusterRole ROLE = Fixtures.serialization().unmarshal(
      Fixtures.resource("META-INF/trainer/rbac/" + JobSetPlugin.NAME + ".yaml"), ClusterRole.class);
  private static final Set<String> READ = Set.of("get", "list", "watch");
  private static final Set<String> WRITE = Set.of("create", "update", "patch");

  static Stream<Watch> watches() {
    return new JobSetPlugin().watches().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("watches")
  void allowsWhatTheWatchNeeds(Watch watch) {
    List<String> verbs = verbs(watch.type());

    assertThat(verbs).containsAll(READ);
    if (watch.relation() == Watch.Relation.OWNED) {
      assertThat(verbs).containsAll(WRITE);
    }
  }

  @Test
  void allowsDeletingJobSets() {
    assertThat(verbs(JobSet.class)).contains("delete");
  }

  private static List<String> verbs(Class<? extends HasMetadata> type) {
    String group = HasMetadata.getGroup(type);
    String resource = HasMetadata.getPlural(type);
    return ROLE.getRules().stream()
        .filter(rule -> rule.getApiGroups().contains(group) && rule.getResources().contains(resource))
        .map(PolicyRule::getVerbs)
        .flatMap(List::stream)
        .toList();
  }
}
