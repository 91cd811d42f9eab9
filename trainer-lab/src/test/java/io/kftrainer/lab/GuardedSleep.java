package io.kftrainer.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A JVM that starts {@code sleep 600} as a lab component, writes the component's pid to {@code args[0]} and waits
 * forever, for {@link LabProcessTest} to kill.
 */
public final class GuardedSleep {

  private GuardedSleep() {
  }

  public static void main(String[] args) throws Exception {
    Path pidFile = Path.of(args[0]);
    LabProcess sleep = LabProcess.start("sleep", List.of("sleep", "600"), pidFile.resolveSibling("sleep.log"));
    Files.writeString(pidFile, Long.toString(LabProcessTest.component(sleep).pid()));
    Thread.currentThread().join();
  }
}
