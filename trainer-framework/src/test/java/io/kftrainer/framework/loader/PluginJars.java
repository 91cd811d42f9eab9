package io.kftrainer.framework.loader;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds plugin jars during a test: compiles sources against the test class path and lists them as services. A jar
 * that does not fit the operator is made from a fitting one: classes left out (compiled against, as against a newer
 * framework, but not in the jar), a class file marked for a newer Java, a manifest recording a newer framework.
 */
final class PluginJars {

  private final Map<String, String> sources = new LinkedHashMap<>();
  private final List<String> services = new ArrayList<>();
  private final List<String> leftOut = new ArrayList<>();
  private final Map<String, Integer> classFileVersions = new LinkedHashMap<>();
  private final Map<String, String> manifest = new LinkedHashMap<>();

  private PluginJars() {
  }

  /**
   * @param sources fully qualified class name → source text
   * @param services the classes to list in {@code META-INF/services/io.kftrainer.framework.spi.Plugin}
   */
  static Path build(Path jar, Map<String, String> sources, List<String> services) throws IOException {
    return jar().sources(sources).services(services).build(jar);
  }

  static PluginJars jar() {
    return new PluginJars();
  }

  PluginJars sources(Map<String, String> classes) {
    sources.putAll(classes);
    return this;
  }

  PluginJars source(String className, String text) {
    sources.put(className, text);
    return this;
  }

  PluginJars services(List<String> classNames) {
    services.addAll(classNames);
    return this;
  }

  /** Compiles the class but leaves it out of the jar. */
  PluginJars leaveOut(String className) {
    leftOut.add(className);
    return this;
  }

  /** Marks the class file with {@code major} (Java 21 is 65), as a newer compiler would have written it. */
  PluginJars classFileVersion(String className, int major) {
    classFileVersions.put(className, major);
    return this;
  }

  PluginJars manifest(String attribute, String value) {
    manifest.put(attribute, value);
    return this;
  }

  Path build(Path jar) throws IOException {
    Path work = Files.createTempDirectory("plugin-src");
    Path classes = Files.createDirectories(work.resolve("classes"));
    List<String> args = new ArrayList<>(List.of(
        "-d", classes.toString(), "-cp", System.getProperty("java.class.path"), "-proc:none", "--release", "17"));
    for (var source : sources.entrySet()) {
      Path file = work.resolve("src").resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      args.add(file.toString());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    if (compiler.run(null, null, new TextOutputStream(diagnostics), args.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("plugin sources do not compile:\n" + diagnostics);
    }
    for (var version : classFileVersions.entrySet()) {
      Path classFile = classes.resolve(version.getKey().replace('.', '/') + ".class");
      byte[] bytes = Files.readAllBytes(classFile);
      // u4 magic, u2 minor_version, u2 major_version
      bytes[6] = (byte) (version.getValue() >> 8);
      bytes[7] = (byte) (int) version.getValue();
      Files.write(classFile, bytes);
    }
    Set<String> omitted = Set.copyOf(leftOut.stream().map(name -> name.replace('.', '/') + ".class").toList());
    Manifest jarManifest = new Manifest();
    jarManifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.forEach((name, value) -> jarManifest.getMainAttributes().put(new Attributes.Name(name), value));
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), jarManifest);
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String entry = classes.relativize(file).toString().replace('\\', '/');
        if (!omitted.contains(entry)) {
          out.putNextEntry(new JarEntry(entry));
          out.write(Files.readAllBytes(file));
          out.closeEntry();
        }
      }
      out.putNextEntry(new JarEntry(PluginLoader.SERVICE_FILE));
      out.write((String.join("\n", services) + "\n").getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    return jar;
  }

  /** Collects the compiler's diagnostics. */
  private static final class TextOutputStream extends OutputStream {

    private final StringWriter text;

    TextOutputStream(StringWriter text) {
      this.text = text;
    }

    @Override
    public void write(int b) {
      text.write(b);
    }
  }
}
