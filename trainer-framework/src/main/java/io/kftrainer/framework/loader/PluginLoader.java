package io.kftrainer.framework.loader;

import io.kftrainer.framework.runner.FrameworkVersion;
import io.kftrainer.framework.runner.LinkageErrors;
import io.kftrainer.framework.spi.Configurable;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.WatchExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds plugins as {@link java.util.ServiceLoader} does: every class listed in {@value #SERVICE_FILE} (what
 * {@code @AutoService(Plugin.class)} writes) visible to a class loader, instantiated with its public no-argument
 * constructor. Unlike {@code ServiceLoader}, each class that cannot be loaded is reported with the jar it is in and
 * its cause in words ({@link LoadProblem}), and the others still load: a class built for a newer Java, one that
 * implements an extension point this framework does not have, a constructor that throws. Every
 * {@link LinkageError} is such a problem, and so is one thrown by the methods the operator calls once at start-up
 * ({@code name()}, {@code order()}, {@code watches()}, {@code configType()}), which are called here.
 */
public final class PluginLoader {

  static final String SERVICE_FILE = "META-INF/services/io.kftrainer.framework.spi.Plugin";

  private PluginLoader() {
  }

  public static PluginSet load(ClassLoader classLoader) {
    List<LoadedPlugin> plugins = new ArrayList<>();
    List<LoadProblem> problems = new ArrayList<>();
    List<URL> serviceFiles;
    try {
      serviceFiles = Collections.list(classLoader.getResources(SERVICE_FILE));
    } catch (IOException e) {
      return new PluginSet(List.of(), List.of(new LoadProblem(SERVICE_FILE, "cannot be read: " + e.getMessage())));
    }
    Set<String> seen = new LinkedHashSet<>();
    for (URL serviceFile : serviceFiles) {
      List<String> classNames;
      try {
        classNames = classNames(serviceFile);
      } catch (IOException e) {
        problems.add(new LoadProblem(location(serviceFile, SERVICE_FILE), "cannot read " + SERVICE_FILE + ": "
            + e.getMessage()));
        continue;
      }
      for (String className : classNames) {
        if (!seen.add(className)) {
          continue;
        }
        try {
          plugins.add(instantiate(classLoader, className));
        } catch (ClassNotFoundException e) {
          problems.add(new LoadProblem(location(serviceFile, SERVICE_FILE), SERVICE_FILE + " lists " + className
              + ", which is not in the plugin's jars"));
        } catch (PluginClassException e) {
          problems.add(new LoadProblem(origin(classLoader, className, serviceFile), e.getMessage()));
        }
      }
    }
    return new PluginSet(plugins, problems);
  }

  private static LoadedPlugin instantiate(ClassLoader classLoader, String className)
      throws ClassNotFoundException, PluginClassException {
    Class<?> type;
    try {
      type = Class.forName(className, false, classLoader);
    } catch (NoClassDefFoundError e) {
      // defining the class failed: a type it extends or implements is missing
      throw new PluginClassException(className + " " + missingSupertype(e));
    } catch (LinkageError e) {
      throw new PluginClassException(describe(className, e));
    }
    if (!Plugin.class.isAssignableFrom(type)) {
      throw new PluginClassException(className + " does not implement " + Plugin.class.getName());
    }
    Plugin plugin;
    try {
      Constructor<? extends Plugin> constructor = type.asSubclass(Plugin.class).getConstructor();
      plugin = constructor.newInstance();
    } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
      throw new PluginClassException(className + " must be a public, concrete class with a public no-argument "
          + "constructor");
    } catch (InvocationTargetException e) {
      throw new PluginClassException(className + " could not be created: its constructor threw "
          + thrown(e.getCause()));
    } catch (ExceptionInInitializerError e) {
      throw new PluginClassException(className + " could not be created: its static initializer threw "
          + thrown(e.getCause()));
    } catch (LinkageError e) {
      throw new PluginClassException(describe(className, e));
    }
    try {
      callStartUpMethods(plugin);
      return LoadedPlugin.of(plugin);
    } catch (RuntimeException | LinkageError | StackOverflowError | AssertionError e) {
      throw new PluginClassException(className + ": " + thrown(e));
    }
  }

  /** What the operator calls on every plugin before the first TrainJob: their failure is a load failure. */
  private static void callStartUpMethods(Plugin plugin) {
    plugin.name();
    plugin.order();
    if (plugin instanceof WatchExtension watching) {
      watching.watches();
    }
    if (plugin instanceof Configurable<?> configurable) {
      configurable.configType();
    }
  }

  private static String missingSupertype(NoClassDefFoundError e) {
    String missing = e.getMessage() == null ? "" : e.getMessage().replace('/', '.');
    if (missing.startsWith("io.kftrainer.framework.spi.")) {
      return "implements " + missing + ", which this framework (" + FrameworkVersion.current()
          + ") does not have: built against a newer trainer-framework";
    }
    return "cannot be loaded: " + LinkageErrors.describe(e);
  }

  private static String describe(String className, LinkageError e) {
    String described = LinkageErrors.describe(e);
    return e instanceof UnsupportedClassVersionError && described.startsWith(className)
        ? described : className + ": " + described;
  }

  /** {@code IllegalStateException: the message}, a linkage error in words. */
  private static String thrown(Throwable e) {
    if (e instanceof LinkageError linkage) {
      return LinkageErrors.describe(linkage);
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  /** The class names a service file lists: one per line, {@code #} starts a comment. */
  private static List<String> classNames(URL serviceFile) throws IOException {
    List<String> names = new ArrayList<>();
    URLConnection connection = serviceFile.openConnection();
    connection.setUseCaches(false);
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(connection.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        int comment = line.indexOf('#');
        String name = (comment >= 0 ? line.substring(0, comment) : line).trim();
        if (!name.isEmpty()) {
          names.add(name);
        }
      }
    }
    return names;
  }

  /** The jar (or class directory) of the class, else of the service file listing it. */
  private static String origin(ClassLoader classLoader, String className, URL serviceFile) {
    String classFile = className.replace('.', '/') + ".class";
    URL found = classLoader.getResource(classFile);
    return found != null ? location(found, classFile) : location(serviceFile, SERVICE_FILE);
  }

  /**
   * The jar or class directory holding the resource {@code name}: {@code /plugins/x.jar} for
   * {@code jar:file:/plugins/x.jar!/a/B.class}.
   */
  static String location(URL resource, String name) {
    try {
      if ("jar".equals(resource.getProtocol())) {
        String jar = resource.getPath();
        int separator = jar.indexOf("!/");
        return Path.of(URI.create(separator < 0 ? jar : jar.substring(0, separator))).toString();
      }
      if ("file".equals(resource.getProtocol())) {
        String path = Path.of(resource.toURI()).toString();
        return path.endsWith(name) ? path.substring(0, path.length() - name.length() - 1) : path;
      }
    } catch (java.net.URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      // not a local file: the URL says where it is
    }
    return resource.toString();
  }

  /** Why a listed plugin class cannot be used, in a plugin author's words. */
  private static final class PluginClassException extends Exception {

    private static final long serialVersionUID = 1L;

    PluginClassException(String message) {
      super(message, null, false, false);
    }
  }
}
