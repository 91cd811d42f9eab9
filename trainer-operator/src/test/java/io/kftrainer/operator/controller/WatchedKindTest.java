package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.spi.EventMapper;
import io.kftrainer.framework.spi.Watch;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How watch declarations become informers: merged per type, label-selected only when all are owned. */
class WatchedKindTest {

  private static final EventMapper MAPPER = (object, cluster) -> Set.of();

  @Test
  void eachTypeGetsOneInformerWhoseCacheIsLimitedOnlyWhenEveryDeclarationIsOwned() {
    List<WatchedKind> kinds = WatchedKind.merge(List.of(
        Watch.owned(ConfigMap.class),
        Watch.owned(Secret.class),
        Watch.referenced(ConfigMap.class, MAPPER),
        Watch.owned(Secret.class),
        Watch.referenced(LimitRange.class)));

    assertThat(kinds).containsExactly(
        new WatchedKind(ConfigMap.class, true, false, List.of(MAPPER), false),
        new WatchedKind(Secret.class, true, true, List.of(), false),
        new WatchedKind(LimitRange.class, false, false, List.of(), false));
  }

  @Test
  void aTypeIsOptionalOnlyWhenEveryPluginWatchingItSaysSo() {
    List<WatchedKind> kinds = WatchedKind.merge(List.of(
        Watch.owned(JobSet.class).optionalCrd(),
        Watch.owned(JobSet.class),
        Watch.referenced(RuntimeClass.class).optionalCrd()));

    assertThat(kinds).extracting(WatchedKind::optional).containsExactly(false, true);
  }

  @Test
  void namesAndScopesComeFromTheResourceClasses() {
    List<WatchedKind> kinds = WatchedKind.merge(List.of(Watch.owned(JobSet.class), Watch.owned(ConfigMap.class),
        Watch.referenced(ClusterTrainingRuntime.class), Watch.referenced(RuntimeClass.class)));

    assertThat(kinds).extracting(WatchedKind::resourceName).containsExactly("jobsets.jobset.x-k8s.io", "configmaps",
        "clustertrainingruntimes.trainer.kubeflow.org", "runtimeclasses.node.k8s.io");
    assertThat(kinds).extracting(WatchedKind::isNamespaced).containsExactly(true, true, false, false);
  }

  @Test
  void missingCrdsAreSkippedWhenOptionalAndFailStartUpOtherwise() {
    List<WatchedKind> kinds = WatchedKind.merge(List.of(Watch.owned(JobSet.class).optionalCrd(),
        Watch.referenced(TrainingRuntime.class), Watch.owned(ConfigMap.class)));

    assertThat(ServedKinds.select(kinds, type -> type != JobSet.class))
        .extracting(WatchedKind::type).containsExactly(TrainingRuntime.class, ConfigMap.class);
    assertThatThrownBy(() -> ServedKinds.select(kinds, type -> type == ConfigMap.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the API server does not serve [trainingruntimes.trainer.kubeflow.org]: install their "
            + "CustomResourceDefinitions before starting the operator");
  }
}
