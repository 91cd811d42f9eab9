package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * When a container's processes count as ended. bwrap's init outlives bwrap as an orphan zombie until the system's
 * PID 1 reaps it, which a sandbox's init did 1 to 2 s late: every container's end, and so every pod's, Job's and
 * TrainJob's, waited for it.
 */
class ContainmentTest {

  @Test
  void aZombieThatOnlyWaitsToBeReapedHasEnded() throws Exception {
    Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "no /proc on this system");
    // the shell's child outlives the shell, which becomes sleep 30 and never reaps it: a zombie once it exits
    Process parent = new ProcessBuilder("sh", "-c", "sleep 1 & echo $!; exec sleep 30").start();
    try {
      long pid = Long.parseLong(new BufferedReader(new InputStreamReader(parent.getInputStream(),
          StandardCharsets.UTF_8)).readLine().trim());
      await().atMost(Duration.ofSeconds(10)).until(() -> state(pid) == 'Z');
      ProcessHandle zombie = ProcessHandle.of(pid).orElseThrow();

      assertThat(Containment.ended(zombie)).isTrue();
      assertThat(Containment.ended(parent.toHandle())).as("a running process").isFalse();
    } finally {
      parent.destroyForcibly();
    }
  }

  private static char state(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }
}
