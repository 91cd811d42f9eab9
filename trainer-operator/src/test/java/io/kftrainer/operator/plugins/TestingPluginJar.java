package io.kftrainer.operator.plugins;

import io.kftrainer.framework.spi.Plugin;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds a third-party plugin jar during a test: compiles Java sources against the test class path with the JDK's
 * compiler, adds the {@code META-INF/services} entry for the plugin class and writes the jar. Nothing binary is
 * checked in.
 */
public final class TestingPluginJar {

  private TestingPluginJar() {
  }

  /**
   * Writes {@code jar} with the classes of {@code sources} (class name to source text) and a service entry for
   * {@code pluginClass}.
   */
  public static Path build(Path jar, String pluginClass, Map<String, String> sources) throws IOException {
    Path work = Files.createTempDirectory("trainer-plugin-build-");
    try {
      compileAndJar(work, jar, pluginClass, sources);
    } finally {
      try (Stream<Path> files = Files.walk(work)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
    return jar;
  }

  private static void compileAndJar(Path work, Path jar, String pluginClass, Map<String, String> sources)
      throws IOException {
    Path sourceDir = work.resolve("src");
    Path classDir = Files.createDirectories(work.resolve("classes"));
    List<String> arguments = new ArrayList<>(List.of("-d", classDir.toString(), "-classpath", classPath(),
        "--release", "17", "-proc:none"));
    for (var source : sources.entrySet()) {
      Path file = sourceDir.resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      arguments.add(file.toString());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    int status = compiler.run(null, null, new WriterOutputStream(diagnostics), arguments.toArray(String[]::new));
    if (status != 0) {
      throw new IllegalStateException("plugin sources do not compile:\n" + diagnostics);
    }
    Files.createDirectories(jar.getParent());
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
        Stream<Path> classes = Files.walk(classDir)) {
      for (Path file : classes.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classDir.relativize(file).toString().replace(File.separatorChar, '/')));
        out.write(Files.readAllBytes(file));
        out.closeEntry();
      }
      out.putNextEntry(new JarEntry("META-INF/services/" + Plugin.class.getName()));
      out.write((pluginClass + "\n").getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
  }

  /**
   * Rewrites {@code jar} without the class {@code className}: a plugin compiled against a class the operator lacks
   * (an extension point or helper of a newer framework, a library left out of the plugin directory).
   */
  public static Path without(Path jar, String className) throws IOException {
    String entry = className.replace('.', '/') + ".class";
    return rewrite(jar, (name, bytes) -> name.equals(entry) ? null : bytes);
  }

  /** Rewrites {@code jar} with the class file of {@code className} marked for Java {@code java} (21: major 65). */
  public static Path markedForJava(Path jar, String className, int java) throws IOException {
    String entry = className.replace('.', '/') + ".class";
    return rewrite(jar, (name, bytes) -> {
      if (name.equals(entry)) {
        // u4 magic, u2 minor_version, u2 major_version; Java 8 is 52
        int major = java + 44;
        bytes[6] = (byte) (major >> 8);
        bytes[7] = (byte) major;
      }
      return bytes;
    });
  }

  /** Writes each entry of {@code jar} as {@code change} returns it; {@code null} leaves it out. */
  private static Path rewrite(Path jar, EntryChange change) throws IOException {
    Path rewritten = jar.resolveSibling(jar.getFileName() + ".tmp");
    try (JarInputStream in = new JarInputStream(Files.newInputStream(jar));
        JarOutputStream out = new JarOutputStream(Files.newOutputStream(rewritten), in.getManifest())) {
      for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
        byte[] bytes = change.apply(entry.getName(), in.readAllBytes());
        if (bytes != null) {
          out.putNextEntry(new JarEntry(entry.getName()));
          out.write(bytes);
          out.closeEntry();
        }
      }
    }
    return Files.move(rewritten, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  /** What becomes of one entry of a rewritten jar. */
  @FunctionalInterface
  private interface EntryChange {
    byte[] apply(String name, byte[] bytes);
  }

  /** The test class path, plus the jars of the SPI and model (surefire may hide them behind a manifest jar). */
  private static String classPath() {
    Set<String> entries = new LinkedHashSet<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
    for (Class<?> type : List.of(Plugin.class, io.kftrainer.api.v1alpha1.TrainJob.class,
        io.fabric8.kubernetes.api.model.HasMetadata.class)) {
      try {
        entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /** Collects the compiler's output as text. */
  private static final class WriterOutputStream extends OutputStream {

    private final StringWriter writer;

    WriterOutputStream(StringWriter writer) {
      this.writer = writer;
    }

    @Override
    public void write(int b) {
      writer.write(b);
    }
  }
}
