package io.kftrainer.framework.loader;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of one plugin directory: child-first, so a plugin can bring its own versions of libraries,
 * except for the packages that make up the contract between plugin and operator, which the operator's class
 * loader is asked first so that objects cross the boundary as the same classes:
 * <ul>
 *   <li>the framework and the API model ({@link #OPERATOR_ONLY_PACKAGES}) only ever come from the operator: a
 *       class there that the operator lacks is missing, never taken from the plugin's jars (a plugin built against
 *       a newer framework fails naming the class instead of running half of another version);</li>
 *   <li>the JDK, fabric8's model, Jackson and SLF4J ({@link #PARENT_FIRST_PACKAGES}) come from the operator when
 *       it has the class, else from the plugin's jars (a fabric8 extension model the operator does not ship).</li>
 * </ul>
 *
 * <p>Service files ({@code META-INF/services/...}) are looked up in the plugin's own jars only; otherwise every
 * plugin directory would find the operator's built-in plugins again.
 */
final class PluginClassLoader extends URLClassLoader {

  static final List<String> OPERATOR_ONLY_PACKAGES = List.of("io.kftrainer.framework.", "io.kftrainer.api.");

  static final List<String> PARENT_FIRST_PACKAGES = List.of(
      "java.", "javax.", "jdk.", "sun.", "com.sun.",
      "io.fabric8.", "com.fasterxml.", "org.slf4j.");

  static {
    ClassLoader.registerAsParallelCapable();
  }

  PluginClassLoader(String name, URL[] jars, ClassLoader parent) {
    super(name, jars, parent);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (isOperatorOnly(name)) {
      Class<?> loaded = getParent().loadClass(name);
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
    if (isParentFirst(name)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded == null) {
        try {
          loaded = findClass(name);
        } catch (ClassNotFoundException notInPlugin) {
          loaded = getParent().loadClass(name);
        }
      }
      if (resolve) {
        resolveClass(loaded);
      }
      return loaded;
    }
  }

  @Override
  public URL getResource(String name) {
    URL own = findResource(name);
    return own != null || name.startsWith("META-INF/services/") ? own : super.getResource(name);
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    List<URL> urls = new ArrayList<>(Collections.list(findResources(name)));
    if (!name.startsWith("META-INF/services/")) {
      urls.addAll(Collections.list(getParent().getResources(name)));
    }
    return Collections.enumeration(urls);
  }

  /** Whether a class of this name, or a resource of this path ({@code a/b/C.class}), is the operator's only. */
  static boolean isOperatorOnly(String className) {
    String dotted = className.replace('/', '.');
    return OPERATOR_ONLY_PACKAGES.stream().anyMatch(dotted::startsWith);
  }

  private static boolean isParentFirst(String className) {
    return PARENT_FIRST_PACKAGES.stream().anyMatch(className::startsWith);
  }
}
