package io.kftrainer.framework.loader;

import io.kftrainer.framework.spi.Plugin;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds plugins with {@link ServiceLoader}: every class listed in {@code META-INF/services/}
 * {@code io.kftrainer.framework.spi.Plugin} (what {@code @AutoService(Plugin.class)} writes) visible to a class
 * loader. A provider that cannot be instantiated is reported and skipped; the others still load.
 */
public final class PluginLoader {

  private PluginLoader() {
  }

  public static PluginSet load(ClassLoader classLoader) {
    List<LoadedPlugin> plugins = new ArrayList<>();
    List<LoadProblem> problems = new ArrayList<>();
    var iterator = ServiceLoader.load(Plugin.class, classLoader).stream().iterator();
    while (true) {
      ServiceLoader.Provider<Plugin> provider;
      try {
        if (!iterator.hasNext()) {
          break;
        }
        provider = iterator.next();
      } catch (ServiceConfigurationError e) {
        problems.add(new LoadProblem("META-INF/services/" + Plugin.class.getName(), e.getMessage()));
        continue;
      }
      try {
        plugins.add(LoadedPlugin.of(provider.get()));
      } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
        problems.add(new LoadProblem(provider.type().getName(), String.valueOf(e.getMessage())));
      }
    }
    return new PluginSet(plugins, problems);
  }
}
