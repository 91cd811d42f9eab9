package io.kftrainer.e2e.support;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

  /** A one-shot command ({@code render}, {@code plugins}); fast start-up matters more than peak speed. */
  public static Command command(String... args) {
    return Command.of(commandLine(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), List.of(args)));
  }
}
