package io.kftrainer.deploy.image;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code trainer.jar apiserver} as a process of its own: the embedded API server the image and the chart are tried
 * against. Ready when it has written its kubeconfig (it writes it last); stopped with SIGTERM.
 */
public final class ApiServerProcess implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

  private final Process process;
  private final Path kubeconfig;
  private final Path log;

  private ApiServerProcess(Process process, Path kubeconfig, Path log) {
    this.process = process;
    this.kubeconfig = kubeconfig;
    this.log = log;
  }

  /**
   * Starts {@code java -jar trainerJar apiserver} on a free port of 127.0.0.1 with the webhook Service routed to
   * {@code 127.0.0.1:webhookPort}, in {@code workDir} (kubeconfig and log), and waits until it is ready.
   *
   * @param empty whether to install nothing ({@code --empty}: no CRDs, webhook configurations or runtimes)
   */
  public static ApiServerProcess start(Path trainerJar, Path workDir, int webhookPort, boolean empty)
      throws IOException, InterruptedException {
    if (!Files.isRegularFile(trainerJar)) {
      throw new IOException(trainerJar + " is missing: build trainer-cli first");
    }
    Files.createDirectories(workDir);
    Path kubeconfig = workDir.resolve("apiserver.kubeconfig");
    Path log = workDir.resolve("apiserver.log");
    Files.deleteIfExists(kubeconfig);
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-jar", trainerJar.toString(), "apiserver", "--port", "0",
        "--kubeconfig-out", kubeconfig.toString(), "--webhook-address", "127.0.0.1:" + webhookPort));
    if (empty) {
      command.add("--empty");
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    ApiServerProcess server = new ApiServerProcess(process, kubeconfig, log);
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (!Files.exists(kubeconfig) || Files.size(kubeconfig) == 0) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        server.close();
        throw new IOException("trainer.jar apiserver did not start (" + log + "):\n" + Files.readString(log));
      }
      Thread.sleep(100);
    }
    return server;
  }

  /** A port nothing listens on now, for a server started next (the API server's webhook routes, the container's). */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  public Path kubeconfig() {
    return kubeconfig;
  }

  public Path log() {
    return log;
  }

  /** A client of the server (the kubeconfig's). */
  public KubernetesClient client() throws IOException {
    return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
