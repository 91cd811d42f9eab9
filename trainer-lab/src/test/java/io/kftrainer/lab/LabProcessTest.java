package io.kftrainer.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A lab component never outlives the JVM that started it: closed, or with the JVM killed. */
class LabProcessTest {

  @TempDir
  Path dir;

  @Test
  void closingStopsTheComponentAndItsGuard() throws Exception {
    LabProcess sleep = LabProcess.start("sleep", List.of("sleep", "600"), dir.resolve("sleep.log"));
    ProcessHandle component = component(sleep);
    assertThat(sleep.isAlive()).isTrue();

    sleep.close();

    assertThat(component.isAlive()).isFalse();
    assertThat(sleep.isAlive()).isFalse();
  }

  @Test
  void aComponentThatExitsIsSeenToHaveExited() throws Exception {
    LabProcess failing = LabProcess.start("false", List.of("sh", "-c", "echo bad flag; exit 3"),
        dir.resolve("false.log"));

    await("the guard exits with the component").atMost(Duration.ofSeconds(10)).until(() -> !failing.isAlive());
    assertThat(failing.tail(5)).isEqualTo("bad flag");
    failing.close();
  }

  @Test
  void theComponentIsStoppedWhenTheJvmThatStartedItIsKilled() throws Exception {
    Path pidFile = dir.resolve("sleep.pid");
    Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), GuardedSleep.class.getName(), pidFile.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("jvm.log").toFile()).start();
    await("the component's pid").atMost(Duration.ofSeconds(30))
        .until(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank());
    ProcessHandle component = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).orElseThrow();
    assertThat(component.isAlive()).isTrue();

    jvm.destroyForcibly().waitFor();

    await("the component stopped").atMost(Duration.ofSeconds(15)).until(() -> !component.isAlive());
  }

  /** The component's own process: the guard's child that runs {@code sleep} (its other child is the watcher). */
  static ProcessHandle component(LabProcess process) {
    return await("the component process under the guard").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20)).until(() -> process.guard().children()
            .filter(c -> c.info().command().map(cmd -> cmd.endsWith("/sleep")).orElse(false)).findFirst(),
            java.util.Optional::isPresent).orElseThrow();
  }
}
