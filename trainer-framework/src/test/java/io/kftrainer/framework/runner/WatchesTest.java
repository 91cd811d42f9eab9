package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.kftrainer.framework.model.ObjectKey;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Watch;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WatchesTest {

  @Test
  void watchesOfTheSameKindFromTwoPluginsBecomeOneWithTheUnionOfTheirMappings() {
    Watch fromA = Watch.referenced(LimitRange.class, (o, c) -> Set.of(new ObjectKey("ns", "a")));
    Watch fromB = Watch.referenced(LimitRange.class, (o, c) -> Set.of(new ObjectKey("ns", "b")));
    Watch owned = Watch.owned(ConfigMap.class).optionalCrd();

    List<Watch> merged = Watches.merge(List.of(fromA, owned, fromB, Watch.owned(ConfigMap.class)));

    assertThat(merged).hasSize(2);
    assertThat(merged.get(0).mapper().orElseThrow().trainJobsFor(new LimitRange(), ObjectLookup.empty()))
        .containsExactly(new ObjectKey("ns", "a"), new ObjectKey("ns", "b"));
    assertThat(merged.get(1).type()).isEqualTo(ConfigMap.class);
    assertThat(merged.get(1).optional()).as("optional only if every plugin tolerates a missing CRD").isFalse();
  }
}
