package io.kftrainer.plugins.flux;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.framework.spi.Plugin;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The operator finds the plugin with {@link ServiceLoader}, under upstream's name and at its place in the phases. */
class FluxRegistrationTest {

  @Test
  void isDiscoveredWithItsNameAndOrder() {
    assertThat(ServiceLoader.load(Plugin.class).stream().map(ServiceLoader.Provider::get))
        .filteredOn(plugin -> plugin instanceof FluxPlugin)
        .singleElement()
        .satisfies(plugin -> {
          assertThat(plugin.name()).isEqualTo("Flux").isEqualTo(FluxPlugin.NAME);
          assertThat(plugin.order()).isEqualTo(150);
        });
  }
}
