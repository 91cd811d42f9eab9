package io.kftrainer.framework.loader;

import io.kftrainer.framework.runner.FrameworkVersion;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
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
 * A jar that cannot be opened or does not fit this operator (built against a newer framework, {@link #unfit}), or
 * a plugin class that cannot be loaded or instantiated ({@link PluginLoader}), is reported with the jar's path and
 * its cause; the other plugins still load. A missing directory holds no plugins.
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
      try (JarFile file = new JarFile(jar.toFile())) {
        unfit(file, parent).ifPresent(cause -> problems.add(new LoadProblem(jar.toString(), cause)));
        urls.add(jar.toUri().toURL());
      } catch (IOException e) {
        problems.add(new LoadProblem(jar.toString(), "not a readable jar: " + e.getMessage()));
      }
    }
    if (urls.isEmpty() || !problems.isEmpty()) {
      // one jar that does not fit fails the plugin: its other jars alone are not the plugin
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

  /**
   * Why a jar cannot run in this operator, found before any of its classes is loaded: it records (in its manifest)
   * a newer framework than this one, or it bundles a class of the framework or API model this operator does not
   * have (those packages only come from the operator, {@link PluginClassLoader}).
   */
  private static Optional<String> unfit(JarFile jar, ClassLoader operator) throws IOException {
    Optional<String> builtAgainst = FrameworkVersion.builtAgainst(jar.getManifest());
    if (builtAgainst.filter(FrameworkVersion::isNewerThanCurrent).isPresent()) {
      return Optional.of("built against trainer-framework " + builtAgainst.get() + ", newer than this operator's "
          + FrameworkVersion.current() + ": build it against trainer-framework " + FrameworkVersion.current()
          + " or upgrade the operator");
    }
    List<String> missing = jar.stream().map(JarEntry::getName)
        .filter(name -> name.endsWith(".class") && PluginClassLoader.isOperatorOnly(name))
        .filter(name -> operator.getResource(name) == null)
        .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
        .sorted().toList();
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("bundles " + missing.get(0) + (missing.size() > 1 ? " and " + (missing.size() - 1)
        + " more classes" : "") + " of trainer-framework or trainer-api that this operator ("
        + FrameworkVersion.current() + ") does not have: built against a newer version; those classes always come "
        + "from the operator (give the dependency scope provided)");
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
