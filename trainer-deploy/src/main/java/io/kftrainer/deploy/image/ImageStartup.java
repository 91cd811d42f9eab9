package io.kftrainer.deploy.image;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A harness (not a test) for the figures of docs/benchmarks.md: the operator image started RUNS times as a
 * container ({@link BwrapContainer}) against {@code trainer.jar apiserver}, with the image's class-data archive and
 * without it ({@code JDK_JAVA_OPTIONS=-Xshare:off}, the JVM's own CDS archive off too), alternately; prints for each
 * run the wall time and the CPU time of the container's JVM until {@code /readyz} answers 200, then the medians.
 * CPU time is the figure to compare on a shared machine: wall time follows the machine's load.
 *
 * <p>Usage: {@code ImageStartup IMAGE_TAR TRAINER_JAR WORK_DIR [RUNS]}
 */
public final class ImageStartup {

  private static final String KUBECONFIG = "/var/run/trainer/kubeconfig";

  private ImageStartup() {
  }

  record Start(boolean archive, Duration wall, Duration cpu) {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: ImageStartup IMAGE_TAR TRAINER_JAR WORK_DIR [RUNS]");
      System.exit(2);
    }
    Path work = Path.of(args[2]).toAbsolutePath();
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    ImageArchiveTraining.deleteRecursively(work);
    ImageArchive image = ImageArchive.read(Path.of(args[0]));
    Path root = work.resolve("rootfs");
    image.unpack(root);
    System.out.printf(Locale.ROOT, "image %s: %.1f MiB in %d layers%n", image.repoTags(),
        image.size() / 1024.0 / 1024.0, image.layerCount());
    List<Start> starts = new ArrayList<>();
    int webhookPort = ApiServerProcess.freePort();
    try (ApiServerProcess server = ApiServerProcess.start(Path.of(args[1]), work, webhookPort, false)) {
      for (int run = 0; run < 2 * runs; run++) {
        Start start = start(image, root, server, webhookPort, run % 2 == 0, work.resolve("run-" + run + ".log"));
        starts.add(start);
        System.out.printf(Locale.ROOT, "%-16s ready after %5.1f s, %5.1f CPU-s%n",
            start.archive() ? "with archive" : "without archive", seconds(start.wall()), seconds(start.cpu()));
      }
    }
    for (boolean archive : List.of(true, false)) {
      List<Start> of = starts.stream().filter(s -> s.archive() == archive).toList();
      System.out.printf(Locale.ROOT, "median %-16s %5.1f s, %5.1f CPU-s (%d runs)%n",
          archive ? "with archive" : "without archive", median(of.stream().map(Start::wall).toList()),
          median(of.stream().map(Start::cpu).toList()), of.size());
    }
  }

  private static Start start(ImageArchive image, Path root, ApiServerProcess server, int webhookPort,
      boolean archive, Path log) throws Exception {
    int healthPort = ApiServerProcess.freePort();
    BwrapContainer.Builder builder = BwrapContainer.builder(root, image.config())
        .args(List.of("run", "--webhook-port=" + webhookPort, "--health-port=" + healthPort,
            "--metrics-port=" + ApiServerProcess.freePort(), "--leader-elect=false"))
        .env("KUBECONFIG", KUBECONFIG)
        .readOnly(server.kubeconfig(), KUBECONFIG)
        .emptyDir("/tmp");
    if (!archive) {
      builder.env("JDK_JAVA_OPTIONS", "-Xshare:off");
    }
    long started = System.nanoTime();
    try (BwrapContainer container = builder.start(log)) {
      while (!ImageArchiveTraining.ready(healthPort)) {
        if (!container.isAlive() || System.nanoTime() - started > Duration.ofMinutes(3).toNanos()) {
          throw new IllegalStateException("the container did not become ready:\n" + Files.readString(log));
        }
        Thread.sleep(50);
      }
      Duration wall = Duration.ofNanos(System.nanoTime() - started);
      Duration cpu = container.mainProcess().flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO);
      container.terminate();
      container.awaitExit(Duration.ofSeconds(30));
      return new Start(archive, wall, cpu);
    }
  }

  private static double median(List<Duration> durations) {
    List<Duration> sorted = durations.stream().sorted().toList();
    return seconds(sorted.get(sorted.size() / 2));
  }

  private static double seconds(Duration duration) {
    return duration.toMillis() / 1000.0;
  }
}
