package io.kftrainer.plugins.jobset;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.framework.spi.ExtensionPoint;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.Watch;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class JobSetPluginTest {

  @Test
  void isDiscoveredAsAServiceUnderItsUpstreamName() {
    assertThat(ServiceLoader.load(Plugin.class).stream().map(ServiceLoader.Provider::type))
        .contains(JobSetPlugin.class);
    JobSetPlugin plugin = new JobSetPlugin();
    assertThat(plugin.name()).isEqualTo("JobSet");
    assertThat(plugin.order()).isEqualTo(300);
  }

  @Test
  void takesPartInTheSameExtensionPointsAsUpstream() {
    assertThat(ExtensionPoint.implementedBy(new JobSetPlugin())).containsExactly(
        ExtensionPoint.WATCH_EXTENSION,
        ExtensionPoint.CUSTOM_VALIDATION,
        ExtensionPoint.PRE_BUILD_SYNC,
        ExtensionPoint.COMPONENT_BUILDER,
        ExtensionPoint.TERMINAL_CONDITION);
  }

  @Test
  void watchesTheJobSetsItOwns() {
    assertThat(new JobSetPlugin().watches()).containsExactly(Watch.owned(JobSet.class));
  }
}
