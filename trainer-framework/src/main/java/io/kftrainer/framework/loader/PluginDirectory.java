package io.kftrainer.framework.loader;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads third-party plugins from a directory, each with a {@link PluginClassLoader} of its own:
 *
 * <pre>
 * plugins/
 *   team-label/            one plugin: every jar in it shares one class loader
 *     team-label-plugin.jar
 *     some-library.jar
 *   tolerations-plugin.jar a jar directly in the directory is a plugin of its own
 * </pre>
 *
 * A jar that cannot be opened, or a plugin class that cannot be instantiated, is reported with its path; the
 * others still load. A missing directory holds no plugins.
 */
public final class PluginDirectory {

  private PluginDirectory() {
  }

  public static PluginSet load(Path directory, ClassLoader parent) {
    if (!Files.isDirectory(directory)) {
      return new PluginSet(List.of(), List.of());
    }
    PluginSet result = new PluginSet(List.of(), List.of());
    for (Path entry : sorted(directory)) {
      if (Files.isDirectory(entry)) {
        result = result.plus(loadPlugin(entry, sorted(entry).stream().filter(PluginDirectory::isJar).toList(),
            parent));
      } else if (isJar(entry)) {
        result = result.plus(loadPlugin(entry, List.of(entry), parent));
      }
    }
    return result;
  }

  private static PluginSet loadPlugin(Path plugin, List<Path> jars, ClassLoader parent) {
    List<URL> urls = new ArrayList<>();
    List<LoadProblem> problems = new ArrayList<>();
    for (Path jar : jars) {
      try {
        new JarFile(jar.toFile()).close();
        urls.add(jar.toUri().toURL());
      } catch (IOException e) {
        problems.add(new LoadProblem(jar.toString(), "not a readable jar: " + e.getMessage()));
      }
    }
    if (urls.isEmpty()) {
      return new PluginSet(List.of(), problems);
    }
    var classLoader = new PluginClassLoader("plugin:" + plugin.getFileName(), urls.toArray(URL[]::new), parent);
    PluginSet found = PluginLoader.load(classLoader);
    if (found.plugins().isEmpty() && found.problems().isEmpty()) {
      problems.add(new LoadProblem(plugin.toString(),
          "no plugin found (is the class listed in META-INF/services/io.kftrainer.framework.spi.Plugin?)"));
    }
    return found.plus(new PluginSet(List.of(), problems));
  }

  private static boolean isJar(Path path) {
    return Files.isRegularFile(path) && path.getFileName().toString().endsWith(".jar");
  }

  private static List<Path> sorted(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.sorted().toList();
    } catch (IOException e) {
      throw new IllegalStateException("cannot list plugin directory " + directory + ": " + e.getMessage(), e);
    } catch (SecurityException e) {
      throw new IllegalStateException("cannot read plugin directory " + directory, e);
    }
  }
}
