package io.kftrainer.operator.command;

import io.kftrainer.framework.runner.StatusConditions;
import io.kftrainer.operator.plugins.OperatorPlugins;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The plugin options, {@code --plugins-dir} and {@code --plugin-config}, shared by every command that runs plugins
 * ({@code @Mixin}).
 */
public final class PluginsDirOption {

  @Option(names = "--plugins-dir", paramLabel = "DIR", defaultValue = OperatorPlugins.DEFAULT_PLUGINS_DIR,
      description = "Directory of third-party plugin jars, loaded after the built-in plugins; a missing "
          + "directory holds none (default: ${DEFAULT-VALUE}).")
  private Path pluginsDir;

  @Option(names = "--plugin-config", paramLabel = "FILE",
      description = "YAML file with one section per plugin name: the settings of configurable plugins. An unknown "
          + "plugin or field, or a bad value, stops start-up (default: none: every plugin's defaults).")
  private Path pluginConfig;

  public Path pluginsDir() {
    return pluginsDir;
  }

  public Optional<Path> pluginConfig() {
    return Optional.ofNullable(pluginConfig);
  }

  /** The built-in plugins plus those of {@code --plugins-dir}, configured from {@code --plugin-config}. */
  public OperatorPlugins load() {
    return load(StatusConditions.UPSTREAM);
  }

  /** As {@link #load()}, with a runner that writes the condition types {@code conditions}. */
  public OperatorPlugins load(StatusConditions conditions) {
    return OperatorPlugins.load(pluginsDir, pluginConfig(), conditions);
  }
}
