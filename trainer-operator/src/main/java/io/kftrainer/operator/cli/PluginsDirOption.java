package io.kftrainer.operator.cli;

import io.kftrainer.operator.plugins.OperatorPlugins;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --plugins-dir} option, shared by every command that runs plugins ({@code @Mixin}). */
public final class PluginsDirOption {

  @Option(names = "--plugins-dir", paramLabel = "DIR", defaultValue = OperatorPlugins.DEFAULT_PLUGINS_DIR,
      description = "Directory of third-party plugin jars, loaded after the built-in plugins; a missing "
          + "directory holds none (default: ${DEFAULT-VALUE}).")
  private Path pluginsDir;

  public Path pluginsDir() {
    return pluginsDir;
  }

  /** The built-in plugins plus those of {@code --plugins-dir}. */
  public OperatorPlugins load() {
    return OperatorPlugins.load(pluginsDir);
  }
}
