package io.kftrainer.benchmarks.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code local}'s start as {@code bin/trainer} runs it (C1 only, the build's AppCDS archive when it is next to the
 * jar): {@code local --apply} with a one-pod TrainJob, timed from the process's start to the banner and to the
 * executor's line saying the TrainJob's pod is {@code Running}. Medians of N fresh starts.
 */
final class StartupFigures {

  /** Medians in milliseconds. */
  record Result(double toBanner, double cpuToBanner, double toRunning, int starts, boolean archive) {
  }

  private static final String TRAINJOB = String.join("\n",
      "apiVersion: trainer.kubeflow.org/v1alpha1",
      "kind: TrainJob",
      "metadata: {name: startup}",
      "spec:",
      "  runtimeRef: {name: torch-distributed}",
      "  trainer:",
      "    numNodes: 1",
      "    command: [sleep, '60']",
      "");

  private final Path jar;
  private final Path workDir;

  StartupFigures(Path jar, Path workDir) {
    this.jar = jar;
    this.workDir = workDir;
  }

  /** The options of {@code bin/trainer} for this jar. */
  static List<String> binTrainerOptions(Path jar) {
    List<String> options = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
    Path archive = archive(jar);
    if (Files.exists(archive)) {
      options.add("-XX:SharedArchiveFile=" + archive);
    }
    return options;
  }

  private static Path archive(Path jar) {
    String name = jar.getFileName().toString();
    return jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + ".jsa");
  }

  Result run(int starts) throws IOException {
    Path trainJob = Files.writeString(workDir.resolve("startup-trainjob.yaml"), TRAINJOB);
    Samples banner = new Samples();
    Samples bannerCpu = new Samples();
    Samples running = new Samples();
    for (int i = 0; i < starts; i++) {
      try (LocalProcess local = LocalProcess.start(jar, binTrainerOptions(jar), List.of("--apply", trainJob.toString(),
          "--run-dir", workDir.resolve("startup-run-" + i).toString()), workDir)) {
        banner.add(TimeUnit.MILLISECONDS.toNanos(local.millisToBanner()));
        bannerCpu.add(TimeUnit.MILLISECONDS.toNanos(local.cpuMillisToBanner()));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!runningLine(local.output())) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the TrainJob of --apply did not run; local's output:\n" + local.output());
          }
          LocalProcess.sleepMillis(2);
        }
        running.add(local.nanosSinceStart());
      }
    }
    return new Result(banner.p50(), bannerCpu.p50(), running.p50(), starts, Files.exists(archive(jar)));
  }

  private static boolean runningLine(String output) {
    return output.lines().anyMatch(line -> line.startsWith("pod ") && line.contains("/startup-")
        && line.endsWith(": Running"));
  }
}
