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
 * except for the packages that make up the contract between plugin and operator (the framework and API model,
 * fabric8's model, Jackson, SLF4J and the JDK), which always come from the operator so that objects cross the
 * boundary as the same classes.
 *
 * <p>Service files ({@code META-INF/services/...}) are looked up in the plugin's own jars only; otherwise every
 * plugin directory would find the operator's built-in plugins again.
 */
final class PluginClassLoader extends URLClassLoader {

  static final List<String> PARENT_FIRST_PACKAGES = List.of(
      "java.", "javax.", "jdk.", "sun.", "com.sun.",
      "io.kftrainer.framework.", "io.kftrainer.api.",
      "io.fabric8.", "com.fasterxml.", "org.slf4j.");

  static {
    ClassLoader.registerAsParallelCapable();
  }

  PluginClassLoader(String name, URL[] jars, ClassLoader parent) {
    super(name, jars, parent);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
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

  private static boolean isParentFirst(String className) {
    return PARENT_FIRST_PACKAGES.stream().anyMatch(className::startsWith);
  }
}
