package io.kftrainer.plugins.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.kftrainer.framework.spi.ExtensionPoint;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.Watch;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class MPIPluginTest {

  private final MPIPlugin plugin = new MPIPlugin();

  @Test
  void isNamedAndOrderedAsAssigned() {
    assertThat(plugin.name()).isEqualTo("MPI").isEqualTo(MPIPlugin.NAME);
    assertThat(plugin.order()).isEqualTo(110);
  }

  @Test
  void takesPartInValidationMlPolicyBuildAndWatches() {
    assertThat(ExtensionPoint.implementedBy(plugin)).containsExactly(
        ExtensionPoint.WATCH_EXTENSION, ExtensionPoint.CUSTOM_VALIDATION, ExtensionPoint.ENFORCE_ML_POLICY,
        ExtensionPoint.COMPONENT_BUILDER);
  }

  @Test
  void watchesTheSecretsAndConfigMapsItOwns() {
    assertThat(plugin.watches()).containsExactly(Watch.owned(Secret.class), Watch.owned(ConfigMap.class));
  }

  @Test
  void isFoundByTheServiceLoader() {
    assertThat(ServiceLoader.load(Plugin.class).stream().map(ServiceLoader.Provider::type))
        .contains(MPIPlugin.class);
  }
}
