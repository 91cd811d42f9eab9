package io.kftrainer.framework.loader;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Builds plugin jars during a test: compiles sources against the test class path and lists them as services. */
final class PluginJars {

  private PluginJars() {
  }

  /**
   * @param sources fully qualified class name → source text
   * @param services the classes to list in {@code META-INF/services/io.kftrainer.framework.spi.Plugin}
   */
  static Path build(Path jar, Map<String, String> sources, List<String> services) throws IOException {
    Path work = Files.createTempDirectory("plugin-src");
    Path classes = Files.createDirectories(work.resolve("classes"));
    for (var source : sources.entrySet()) {
      Path file = work.resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    List<String> args = new java.util.ArrayList<>(List.of(
        "-d", classes.toString(), "-cp", System.getProperty("java.class.path"), "-proc:none"));
    try (Stream<Path> files = Files.walk(work)) {
      files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    if (compiler.run(null, null, null, args.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("plugin sources do not compile");
    }
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(file));
        out.closeEntry();
      }
      out.putNextEntry(new JarEntry("META-INF/services/io.kftrainer.framework.spi.Plugin"));
      writeLines(out, services);
      out.closeEntry();
    }
    return jar;
  }

  private static void writeLines(OutputStream out, List<String> lines) throws IOException {
    out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
