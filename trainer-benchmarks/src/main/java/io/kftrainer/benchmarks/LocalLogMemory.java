package io.kftrainer.benchmarks;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The resident memory of {@code local} while a pod writes gigabytes of logs: {@code trainer.jar local} as a process
 * of its own, one bare pod that writes {@code GB} gigabytes of short lines and then one 20 MB line and fails (the
 * kubelet composes its failure message from the log's tail), then the whole log read through
 * {@code GET pods/NAME/log} ({@code kubectl logs}). The figure is the JVM's VmRSS, sampled every 50 ms from
 * {@code /proc}: its peak in each phase, next to the idle figure.
 *
 * <pre>java -cp trainer-benchmarks/target/benchmarks.jar io.kftrainer.benchmarks.LocalLogMemory [GB] [trainer.jar]</pre>
 */
public final class LocalLogMemory {

  private LocalLogMemory() {
  }

  public static void main(String[] args) throws Exception {
    double gigabytes = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
    Path jar = Path.of(args.length > 1 ? args[1] : "trainer-cli/target/trainer.jar");
    Path dir = Files.createTempDirectory("local-log-memory");
    Path kubeconfig = dir.resolve("kubeconfig");
    String javaCommand = ProcessHandle.current().info().command().orElse("java");
    Process local = new ProcessBuilder(javaCommand, "-jar", jar.toString(), "local", "--port", "0", "--kubeconfig-out",
        kubeconfig.toString(), "--run-dir", dir.resolve("run").toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("local.out").toFile()).start();
    try {
      await(() -> Files.exists(kubeconfig) && output(dir).contains("Press Ctrl-C"), Duration.ofMinutes(3));
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        long idle = rss(local.pid());
        long bytes = (long) (gigabytes * (1L << 30));
        String line = "step 123456: loss 0.0123456789, learning rate 0.0001, tokens/s 12345.6";
        String script = "yes '" + line + "' | head -c "
            + bytes + "; head -c 20000000 /dev/zero | tr '\\0' x; echo; exit 1";
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("writer")
            .endMetadata().withNewSpec().withRestartPolicy("Never").addNewContainer().withName("main")
            .withImage("busybox").withCommand("sh", "-c", script).endContainer().endSpec().build()).create();
        Sampler writing = new Sampler(local.pid());
        long started = System.nanoTime();
        await(() -> phase(client).equals("Failed"), Duration.ofMinutes(30));
        long writeSeconds = (System.nanoTime() - started) / 1_000_000_000L;
        long writePeak = writing.stop();
        Pod pod = client.pods().inNamespace("default").withName("writer").get();
        String message = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getMessage();

        Sampler streaming = new Sampler(local.pid());
        long received = 0;
        try (InputStream in = client.pods().inNamespace("default").withName("writer").getLogInputStream()) {
          byte[] buffer = new byte[1 << 16];
          for (int n; (n = in.read(buffer)) >= 0; ) {
            received += n;
          }
        }
        long streamPeak = streaming.stop();
        long logSize = Files.size(dir.resolve("run/default/pods/writer/logs/main.log"));

        System.out.printf(Locale.ROOT, "log written: %,d bytes in %d s (%d-byte lines, then one 20,000,000-byte "
            + "line)%n", logSize, writeSeconds, line.length() + 1);
        System.out.printf(Locale.ROOT, "failure message: %,d characters%n", message == null ? 0 : message.length());
        System.out.printf(Locale.ROOT, "GET pods/writer/log: %,d bytes received%n", received);
        System.out.printf(Locale.ROOT, "local's VmRSS: idle %d MiB, peak while the pod wrote and failed %d MiB, "
            + "peak while its log was read %d MiB%n", idle >> 20, writePeak >> 20, streamPeak >> 20);
      }
    } finally {
      local.destroy();
      local.waitFor();
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static String phase(KubernetesClient client) {
    Pod pod = client.pods().inNamespace("default").withName("writer").get();
    return pod == null || pod.getStatus() == null || pod.getStatus().getPhase() == null ? ""
        : pod.getStatus().getPhase();
  }

  /** The peak VmRSS of a process while it runs, sampled every 50 ms on a thread of its own. */
  private static final class Sampler {
    private final AtomicLong peak = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    Sampler(long pid) {
      thread = new Thread(() -> {
        while (running) {
          peak.accumulateAndGet(rss(pid), Math::max);
          sleep(50);
        }
      });
      thread.start();
    }

    long stop() throws InterruptedException {
      running = false;
      thread.join();
      return peak.get();
    }
  }

  private static long rss(long pid) {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"));
      return lines.stream().filter(l -> l.startsWith("VmRSS:")).map(l -> l.replaceAll("\\D", ""))
          .mapToLong(Long::parseLong).findFirst().orElse(0) * 1024;
    } catch (IOException e) {
      return 0;
    }
  }

  private static String output(Path dir) throws IOException {
    return Files.readString(dir.resolve("local.out"));
  }

  private static void await(Callable condition, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.call()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not reached in " + timeout);
      }
      sleep(200);
    }
  }

  @FunctionalInterface
  private interface Callable {
    boolean call() throws Exception;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
