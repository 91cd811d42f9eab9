package io.kftrainer.cli;

import io.kftrainer.operator.plugins.OperatorPlugins;
import ch.qos.logback.classic.Level;
import io.kftrainer.framework.loader.LoadProblem;
import io.kftrainer.framework.loader.LoadedPlugin;
import io.kftrainer.framework.loader.PluginConfiguration;
import io.kftrainer.operator.command.AllowPluginLoadFailuresOption;
import io.kftrainer.operator.command.Logging;
import io.kftrainer.operator.command.PluginsDirOption;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code trainer-operator plugins}: what the operator would load. A table of every plugin (name, order, extension
 * points, origin jar) in phase order on stdout, then each configurable plugin's effective configuration
 * ({@code --plugin-config} applied to its defaults), then the load problems; exit 1 if there are problems (unless
 * {@code --allow-plugin-load-failures}, as the operator would start) or the plugins cannot run together
 * (duplicate name, no JobSet plugin), whose reason goes to stderr. It reports everything itself, so only errors
 * are logged.
 */
@Command(name = "plugins", mixinStandardHelpOptions = true,
    description = "List the plugins the operator loads: built-in ones and those of --plugins-dir.")
public final class PluginsCommand implements Callable<Integer> {

  @Spec
  private CommandSpec spec;

  @Mixin
  private PluginsDirOption pluginsDir;

  @Mixin
  private AllowPluginLoadFailuresOption allowLoadFailures;

  @Override
  public Integer call() {
    Logging.setLevel(Level.ERROR);
    OperatorPlugins plugins = pluginsDir.load();
    PrintWriter out = spec.commandLine().getOut();
    out.print(table(plugins.plugins()));
    if (!plugins.configurations().isEmpty()) {
      out.println();
      out.println("Configuration:");
      out.print(configurations(plugins.configurations()));
    }
    if (!plugins.problems().isEmpty()) {
      out.println();
      out.println("Load problems:");
      for (LoadProblem problem : plugins.problems()) {
        out.println("  " + problem.path() + ": " + problem.message());
      }
    }
    boolean loadFailed = !plugins.problems().isEmpty() && !allowLoadFailures.allowed();
    if (loadFailed) {
      plugins.loadError().ifPresent(error -> spec.commandLine().getErr().println("Error: " + error.getMessage()));
    }
    plugins.setupError().ifPresent(error -> spec.commandLine().getErr().println("Error: " + error.getMessage()));
    return loadFailed || plugins.setupError().isPresent() ? 1 : 0;
  }

  /** Each configurable plugin's effective configuration, as YAML under its name. */
  static String configurations(Map<String, Object> configurations) {
    StringBuilder text = new StringBuilder();
    configurations.forEach((name, config) -> {
      text.append("  ").append(name).append(":\n");
      PluginConfiguration.toYaml(config).lines().forEach(line -> text.append("    ").append(line).append('\n'));
    });
    return text.toString();
  }

  static String table(List<LoadedPlugin> plugins) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"NAME", "ORDER", "EXTENSION POINTS", "ORIGIN"});
    List<LoadedPlugin> sorted = plugins.stream()
        .sorted(Comparator.comparingInt((LoadedPlugin p) -> p.plugin().order()).thenComparing(p -> p.plugin().name()))
        .toList();
    for (LoadedPlugin plugin : sorted) {
      rows.add(new String[] {plugin.plugin().name(), String.valueOf(plugin.plugin().order()),
          String.join(",", OperatorPlugins.extensionPoints(plugin)), plugin.origin()});
    }
    int[] widths = new int[4];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i < row.length - 1 ? String.format("%-" + (widths[i] + 3) + "s", row[i]) : row[i]);
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }
}
