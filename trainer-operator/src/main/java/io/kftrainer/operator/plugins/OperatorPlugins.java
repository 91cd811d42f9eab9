package io.kftrainer.operator.plugins;

import io.kftrainer.framework.loader.LoadProblem;
import io.kftrainer.framework.loader.LoadedPlugin;
import io.kftrainer.framework.loader.PluginConfiguration;
import io.kftrainer.framework.loader.PluginDirectory;
import io.kftrainer.framework.loader.PluginLoader;
import io.kftrainer.framework.loader.PluginSet;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.runner.PluginSetupException;
import io.kftrainer.framework.runner.StatusConditions;
import io.kftrainer.framework.spi.ExtensionPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins of this operator process and the {@link PhaseRunner} over them, built once at start-up.
 *
 * <p>Plugins come from two places: the built-in ones on the operator's own class path (found with
 * {@link java.util.ServiceLoader}, exactly like third-party ones; the operator never names a plugin class), then
 * the jars of the plugin directory, each plugin with a class loader of its own ({@link PluginDirectory}). Each
 * loaded plugin is logged with its extension points and origin; a jar or class that cannot be loaded is reported
 * in {@link #problems()} and {@link #loadError()} while the others still load, and the command decides
 * ({@link #checkLoaded}).
 *
 * <p>Configurable plugins ({@link io.kftrainer.framework.spi.Configurable}) get their section of the plugin
 * configuration file once, here, before the runner exists; an invalid file is a setup error like the others.
 *
 * <p>The runner needs a consistent set: unique names, at most one terminal-condition plugin, and the
 * {@value #JOBSET} plugin, without which no TrainJob produces anything. When the set is not consistent,
 * {@link #runner()} throws the {@link PluginSetupException}, but the plugins and problems are still listed, so
 * that the {@code plugins} command can show what was found.
 */
public final class OperatorPlugins {

  /** Where the operator image expects third-party plugins (mounted into the container). */
  public static final String DEFAULT_PLUGINS_DIR = "/opt/trainer/plugins";

  /** The plugin that builds the JobSet: every other plugin only contributes to it. */
  public static final String JOBSET = "JobSet";

  private static final Logger LOG = LoggerFactory.getLogger(OperatorPlugins.class);

  private final PluginSet plugins;
  private final Map<String, Object> configurations;
  private final PhaseRunner runner;
  private final PluginSetupException setupError;

  private OperatorPlugins(PluginSet plugins, Supplier<PluginConfiguration> configuration,
      StatusConditions conditions) {
    this.plugins = plugins;
    Map<String, Object> configured = Map.of();
    PhaseRunner built = null;
    PluginSetupException error = null;
    try {
      configured = configuration.get().apply(plugins.instances());
      built = new PhaseRunner(plugins.instances(), conditions);
      built.requirePlugins(List.of(JOBSET));
    } catch (PluginSetupException e) {
      built = null;
      error = e;
    }
    this.configurations = configured;
    this.runner = built;
    this.setupError = error;
  }

  /** The built-in plugins (from the class path of the operator) and those of {@code pluginsDir}, unconfigured. */
  public static OperatorPlugins load(Path pluginsDir) {
    return load(pluginsDir, Optional.empty(), StatusConditions.UPSTREAM);
  }

  /**
   * The built-in plugins and those of {@code pluginsDir}, each configurable one configured from its section of
   * {@code pluginConfig} ({@code --plugin-config}; a bad configuration is a {@link #setupError()}), with a runner
   * that writes the condition types {@code conditions}.
   */
  public static OperatorPlugins load(Path pluginsDir, Optional<Path> pluginConfig, StatusConditions conditions) {
    return load(OperatorPlugins.class.getClassLoader(), pluginsDir, pluginConfig, conditions);
  }

  /**
   * As {@link #load(Path, Optional, StatusConditions)}, with plugin sections the operator derives from its own
   * configuration under those of {@code pluginConfig} ({@link PluginConfiguration#withDefaults}).
   */
  public static OperatorPlugins load(Path pluginsDir, Optional<Path> pluginConfig, StatusConditions conditions,
      Map<String, ? extends Map<String, ?>> operatorSections) {
    return load(OperatorPlugins.class.getClassLoader(), pluginsDir,
        () -> pluginConfig.map(PluginConfiguration::read).orElseGet(PluginConfiguration::empty)
            .withDefaults(operatorSections), conditions);
  }

  /** The plugins visible to {@code builtIn} and those of {@code pluginsDir}, whose class loaders it parents. */
  public static OperatorPlugins load(ClassLoader builtIn, Path pluginsDir) {
    return load(builtIn, pluginsDir, Optional.empty(), StatusConditions.UPSTREAM);
  }

  public static OperatorPlugins load(ClassLoader builtIn, Path pluginsDir, Optional<Path> pluginConfig,
      StatusConditions conditions) {
    return load(builtIn, pluginsDir,
        () -> pluginConfig.map(PluginConfiguration::read).orElseGet(PluginConfiguration::empty), conditions);
  }

  private static OperatorPlugins load(ClassLoader builtIn, Path pluginsDir,
      Supplier<PluginConfiguration> configuration, StatusConditions conditions) {
    PluginSet found = PluginLoader.load(builtIn).plus(loadDirectory(pluginsDir, builtIn));
    found.plugins().forEach(plugin -> LOG.info("Loaded plugin {} {} from {}", plugin.plugin().name(),
        extensionPoints(plugin), plugin.origin()));
    return new OperatorPlugins(found, configuration, conditions);
  }

  private static PluginSet loadDirectory(Path pluginsDir, ClassLoader parent) {
    if (!Files.exists(pluginsDir)) {
      LOG.info("Plugin directory {} does not exist: no third-party plugins", pluginsDir);
    } else if (!Files.isDirectory(pluginsDir)) {
      return new PluginSet(List.of(), List.of(new LoadProblem(pluginsDir.toString(), "not a directory")));
    }
    return PluginDirectory.load(pluginsDir, parent);
  }

  /** Every plugin found, built-in ones first, then those of the plugin directory in path order. */
  public List<LoadedPlugin> plugins() {
    return plugins.plugins();
  }

  /** The effective configuration of each configurable plugin, by name; empty if the configuration is invalid. */
  public Map<String, Object> configurations() {
    return configurations;
  }

  /** The jars and classes that could not be loaded. */
  public List<LoadProblem> problems() {
    return plugins.problems();
  }

  /**
   * The runner over every plugin, with the {@value #JOBSET} plugin present.
   *
   * @throws PluginSetupException if the plugins cannot run together (see {@link #setupError()})
   */
  public PhaseRunner runner() {
    if (setupError != null) {
      throw setupError;
    }
    return runner;
  }

  /**
   * The jars and classes that could not be loaded, as one error naming each and its cause: the operator stops on
   * it (fail closed: a plugin missing without notice could be one that rejects what it must), unless
   * {@code --allow-plugin-load-failures}.
   */
  public Optional<PluginSetupException> loadError() {
    List<LoadProblem> problems = problems();
    if (problems.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new PluginSetupException("cannot load " + (problems.size() == 1 ? "plugin " : "plugins ")
        + String.join("; ", problems.stream().map(LoadProblem::toString).toList())
        + " (--allow-plugin-load-failures starts without " + (problems.size() == 1 ? "it" : "them") + ")"));
  }

  /**
   * Stops on the jars and classes that could not be loaded ({@link #loadError()}) unless
   * {@code allowLoadFailures} ({@code --allow-plugin-load-failures}); with it, logs a warning per jar left out.
   *
   * @throws PluginSetupException naming each jar and its cause
   */
  public void checkLoaded(boolean allowLoadFailures) {
    if (!allowLoadFailures) {
      loadError().ifPresent(error -> {
        throw error;
      });
    }
    problems().forEach(problem -> LOG.warn("Starting without plugin {}: {} (--allow-plugin-load-failures)",
        problem.path(), problem.message()));
  }

  /** Why the plugins cannot run together, if they cannot. */
  public Optional<PluginSetupException> setupError() {
    return Optional.ofNullable(setupError);
  }

  /** The names of the extension points a plugin implements, in phase order, e.g. {@code [EnforceMLPolicy]}. */
  public static List<String> extensionPoints(LoadedPlugin plugin) {
    return ExtensionPoint.implementedBy(plugin.plugin()).stream().map(ExtensionPoint::displayName).toList();
  }
}
