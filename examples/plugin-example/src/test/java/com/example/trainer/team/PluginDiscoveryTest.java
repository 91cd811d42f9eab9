package com.example.trainer.team;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforcePodSpec;
import io.kftrainer.framework.spi.ExtensionPoint;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.WatchExtension;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** What the operator's loader sees in this jar: AutoService's registration, names and extension points. */
class PluginDiscoveryTest {

  @Test
  void bothPluginsAreRegisteredForTheServiceLoader() {
    assertThat(ServiceLoader.load(Plugin.class).stream().map(ServiceLoader.Provider::type))
        .contains(TeamLabelValidation.class, TeamTolerationPlugin.class);
  }

  @Test
  void eachPluginHasItsNameAndRunsAfterTheBuiltInOnes() {
    TeamLabelValidation validation = new TeamLabelValidation();
    TeamTolerationPlugin toleration = new TeamTolerationPlugin();

    assertThat(validation.name()).isEqualTo("example-team-label");
    assertThat(toleration.name()).isEqualTo("example-team-toleration");
    assertThat(validation.order()).isEqualTo(1000);
    assertThat(toleration.order()).isEqualTo(1000);
    assertThat(ExtensionPoint.implementedBy(validation)).extracting(ExtensionPoint::type)
        .containsExactly(WatchExtension.class, CustomValidation.class);
    assertThat(ExtensionPoint.implementedBy(toleration)).extracting(ExtensionPoint::type)
        .containsExactly(EnforcePodSpec.class);
  }
}
