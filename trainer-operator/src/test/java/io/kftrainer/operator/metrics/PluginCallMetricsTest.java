package io.kftrainer.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Plugin calls timed and their failures counted per plugin and extension point, named as upstream PR #3433. */
class PluginCallMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PluginCallMetrics metrics = new PluginCallMetrics(registry);

  @Test
  void callsAreTimedAndFailuresCountedUnderTheExtensionPointsUpstreamName() {
    metrics.called("torch", "EnforceMLPolicy", TimeUnit.MILLISECONDS.toNanos(4), false);
    metrics.called("torch", "EnforceMLPolicy", TimeUnit.MILLISECONDS.toNanos(6), true);

    assertThat(registry.get("kubeflow.trainer.plugin.execution.duration").tag("plugin", "torch")
        .tag("phase", "enforce_ml_policy").timer().totalTime(TimeUnit.MILLISECONDS)).isEqualTo(10);
    assertThat(registry.get("kubeflow.trainer.plugin.execution.errors").tag("plugin", "torch")
        .tag("phase", "enforce_ml_policy").counter().count()).isEqualTo(1);
  }

  @Test
  void extensionPointsUpstreamHasKeepItsNamesOthersAreSnakeCase() {
    assertThat(PluginCallMetrics.phase("CustomValidation")).isEqualTo("validate");
    assertThat(PluginCallMetrics.phase("ComponentBuilder")).isEqualTo("build");
    assertThat(PluginCallMetrics.phase("TerminalCondition")).isEqualTo("status");
    assertThat(PluginCallMetrics.phase("EnforcePodGroupPolicy")).isEqualTo("enforce_pod_group_policy");
    assertThat(PluginCallMetrics.phase("EnforcePodSpec")).isEqualTo("enforce_pod_spec");
    assertThat(PluginCallMetrics.phase("PreBuildSync")).isEqualTo("pre_build_sync");
  }
}
