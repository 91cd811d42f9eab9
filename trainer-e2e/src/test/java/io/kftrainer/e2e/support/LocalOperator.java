package io.kftrainer.e2e.support;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The product's {@code local} mode as a process: {@code java -jar trainer.jar local --port 0
 * --kubeconfig-out <file> [args]}, which serves an embedded API server with the CRDs, the default runtimes, the
 * operator and its admission webhooks. Tests reach it only through the kubeconfig it writes: with {@link #client()}
 * (fabric8, configured from that file) and {@link #kubectl()}.
 *
 * <p>{@link #start} returns once the instance is ready for a user: its API answers and the shipped
 * ClusterTrainingRuntimes are there. {@link #close()} stops the process (SIGTERM, then SIGKILL), and so does the JVM's
 * exit if a test run is cut short. The process's stdout and stderr go to {@code target/e2e/<name>.log}.
 */
public final class LocalOperator implements AutoCloseable {

  /** How long the process may take to be ready: JVM start, API server, CRDs, runtimes, operator, on 2 slow cores. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  /** A runtime every default installation has: its presence means the default runtimes were applied. */
  private static final String SHIPPED_RUNTIME = "torch-distributed";

  private final TrainerProcess process;
  private final Path kubeconfig;
  private final AtomicInteger namespaces = new AtomicInteger();
  private final List<KubernetesClient> clients = new ArrayList<>();
  private KubernetesClient client;

  private LocalOperator(TrainerProcess process, Path kubeconfig) {
    this.process = process;
    this.kubeconfig = kubeconfig;
  }

  /**
   * Starts {@code local} and waits until it is ready.
   *
   * @param name names the work directory and the log file (unique per instance of a test run)
   * @param args more arguments for {@code local}, e.g. {@code --plugins-dir DIR}
   */
  public static LocalOperator start(String name, List<String> args) {
    return start(name, args, false);
  }

  /** Like {@link #start(String, List)}, with the executor on: pods run as processes of this machine. */
  public static LocalOperator startExecuting(String name, List<String> args) {
    return start(name, args, true);
  }

  private static LocalOperator start(String name, List<String> args, boolean execute) {
    Instant started = Instant.now();
    Path dir = Locations.workDir().resolve(name);
    Path kubeconfig = dir.resolve("kubeconfig");
    try {
      Files.createDirectories(dir);
      Files.deleteIfExists(kubeconfig);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // most tests play the JobSet controller themselves (StandInJobSetController): no pods run
    List<String> local = new ArrayList<>(List.of("local", "--port", "0", "--kubeconfig-out", kubeconfig.toString()));
    if (!execute) {
      local.add("--no-execute");
    }
    if (!args.contains("--data-dir")) {
      local.add("--ephemeral"); // a test starts from nothing, not from what an earlier run left in target/e2e
    }
    local.addAll(args);
    LocalOperator operator = new LocalOperator(TrainerProcess.start(name, List.of("-Xmx768m"), local, Map.of()),
        kubeconfig);
    try {
      operator.awaitReady();
    } catch (RuntimeException | Error e) {
      String tail = operator.logTail(60);
      operator.close();
      throw new AssertionError("local mode " + name + " did not become ready within " + START_TIMEOUT + ": " + e
          + "\n" + tail, e);
    }
    System.out.printf("local mode %s ready in %d ms (%s)%n", name,
        Duration.between(started, Instant.now()).toMillis(), operator.client.getMasterUrl());
    return operator;
  }

  /** {@code local} writes the kubeconfig once it is ready. */
  private void awaitReady() {
    client = new KubernetesClientBuilder().withConfig(tuned(process.awaitKubeconfig(kubeconfig, START_TIMEOUT)))
        .build();
    clients.add(client);
    await("the shipped ClusterTrainingRuntimes").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200))
        .ignoreExceptionsMatching(e -> !(e instanceof TrainerProcess.DiedException))
        .until(() -> {
          process.assertAlive();
          return client.resources(ClusterTrainingRuntime.class).withName(SHIPPED_RUNTIME).get() != null;
        });
  }

  private static Config configFrom(Path kubeconfig) {
    try {
      return tuned(Config.fromKubeconfig(Files.readString(kubeconfig)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Config tuned(Config config) {
    // answers are deterministic: a retried 5xx only hides the failure and slows the test down
    config.setRequestRetryBackoffLimit(0);
    // Java 17's HTTP client upgrades plain HTTP to HTTP/2 and then fails requests beyond the server's stream limit
    // ("too many concurrent streams") instead of queueing them: the load test sends 200 at once
    config.setHttp2Disable(true);
    return config;
  }

  /** The fabric8 client of the written kubeconfig; closed with this instance. */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Another client of the written kubeconfig whose requests may take up to {@code requestTimeout} (fabric8's default
   * is 10 s); closed with this instance.
   */
  public KubernetesClient newClient(Duration requestTimeout) {
    Config config = configFrom(kubeconfig);
    config.setRequestTimeout((int) requestTimeout.toMillis());
    KubernetesClient created = new KubernetesClientBuilder().withConfig(config).build();
    clients.add(created);
    return created;
  }

  /** The kubeconfig {@code local} wrote. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** kubectl with {@code KUBECONFIG} set to {@link #kubeconfig()}. */
  public Kubectl kubectl() {
    return new Kubectl(kubeconfig);
  }

  /** Creates a new namespace {@code <prefix>-<n>} with these labels; each test gets its own. */
  public String createNamespace(String prefix, Map<String, String> labels) {
    String namespace = prefix + "-" + namespaces.incrementAndGet();
    client.namespaces().resource(new NamespaceBuilder()
        .withNewMetadata().withName(namespace).withLabels(labels).endMetadata()
        .build()).create();
    return namespace;
  }

  public String createNamespace(String prefix) {
    return createNamespace(prefix, Map.of());
  }

  /** SIGKILL of {@code local}: no shutdown hook, no cleanup; returns once it is gone. */
  public void kill() {
    process.kill();
  }

  /** Whether {@code local}'s output so far has a line containing {@code text}. */
  public boolean logged(String text) {
    return process.logged(text);
  }

  /** The file the process's stdout and stderr go to. */
  public Path log() {
    return process.log();
  }

  /** The last {@code lines} lines of the process's output, for failure messages. */
  public String logTail(int lines) {
    return process.logTail(lines);
  }

  @Override
  public void close() {
    clients.forEach(KubernetesClient::close);
    process.close();
  }
}
