package io.kftrainer.e2e.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/** The command-line distribution run as users run it: {@code java -jar trainer.jar <args>}. */
public final class OperatorJar {

  private OperatorJar() {
  }

  /** {@code java [jvmOptions] -jar trainer.jar args...} with the JVM running these tests. */
  public static List<String> commandLine(List<String> jvmOptions, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(Locations.operatorJar().toString());
    command.addAll(args);
    return command;
  }

  /**
   * {@code java [jvmOptions] -cp trainer.jar:TEST-JAR MAIN args...}: the distribution with trainer-apiserver's test
   * fixtures on its class path, for {@code apiserver --inject-faults} (the fault injector is a test fixture).
   */
  public static List<String> commandLineWithApiServerTestFixtures(List<String> jvmOptions, List<String> args) {
    Path jar = Locations.operatorJar();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(jar + File.pathSeparator + Locations.apiServerTestFixturesJar());
    command.add(mainClass(jar));
    command.addAll(args);
    return command;
  }

  private static String mainClass(Path jar) {
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A one-shot command ({@code render}, {@code plugins}); fast start-up matters more than peak speed. */
  public static Command command(String... args) {
    return Command.of(commandLine(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), List.of(args)));
  }
}
