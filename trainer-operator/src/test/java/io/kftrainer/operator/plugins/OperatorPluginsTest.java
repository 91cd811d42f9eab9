package io.kftrainer.operator.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.framework.runner.PluginSetupException;
import io.kftrainer.framework.spi.Plugin;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorPluginsTest {

  @Test
  void theBuiltInPluginsLoadAndAMissingPluginsDirectoryHoldsNone(@TempDir Path tmp) {
    OperatorPlugins plugins = OperatorPlugins.load(tmp.resolve("missing"));

    assertThat(plugins.plugins()).extracting(p -> p.plugin().name()).contains("JobSet");
    assertThat(plugins.problems()).isEmpty();
    assertThat(plugins.runner().plugins()).extracting(Plugin::name).contains("JobSet");
  }

  @Test
  void withoutTheJobSetPluginTheRunnerCannotBeBuilt(@TempDir Path tmp) {
    ClassLoader empty = new URLClassLoader(new URL[0], null);

    OperatorPlugins plugins = OperatorPlugins.load(empty, tmp);

    assertThat(plugins.plugins()).isEmpty();
    assertThatThrownBy(plugins::runner).isInstanceOf(PluginSetupException.class)
        .hasMessage("required plugins are not loaded: [JobSet] (loaded: [])");
  }

  @Test
  void aPluginsDirectoryThatIsAFileIsALoadProblem(@TempDir Path tmp) throws IOException {
    Path file = Files.writeString(tmp.resolve("plugins"), "");

    OperatorPlugins plugins = OperatorPlugins.load(file);

    assertThat(plugins.problems()).extracting(Object::toString).containsExactly(file + ": not a directory");
    assertThat(plugins.runner().plugins()).extracting(Plugin::name).contains("JobSet");
  }
}
