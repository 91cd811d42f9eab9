package io.kftrainer.e2e.chaos;

import io.kftrainer.e2e.support.OperatorJar;
import io.kftrainer.e2e.support.TrainerProcess;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.lab.LabPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The product as separate processes: {@code trainer.jar apiserver} (the embedded API server with the trainer
 * installed, optionally injecting faults) and operators started with {@code trainer.jar run --kubeconfig ...}, each
 * in a slot with its own webhook and health ports. The API server routes the webhook Service to the slots' webhook
 * ports, the first listening one first. Tests reach everything through {@link #client()}, which retries 5xx and 429
 * answers as fabric8 does by default (10 times, exponential back-off from 100 ms), and through
 * {@code /debug/stats}.
 */
final class StandaloneCluster implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;
  private final TrainerProcess apiServer;
  private final Path kubeconfig;
  private final int[] webhookPorts;
  private final int[] healthPorts;
  private final List<TrainerProcess> operators = new ArrayList<>();
  private final Map<Integer, TrainerProcess> latestBySlot = new java.util.HashMap<>();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private KubernetesClient client;
  private KubernetesClient clientWithoutRetries;

  private StandaloneCluster(String name, TrainerProcess apiServer, Path kubeconfig, int[] webhookPorts,
      int[] healthPorts) {
    this.name = name;
    this.apiServer = apiServer;
    this.kubeconfig = kubeconfig;
    this.webhookPorts = webhookPorts;
    this.healthPorts = healthPorts;
  }

  /**
   * Starts the API server for {@code slots} operators; {@code faults} is an {@code --inject-faults} specification
   * (off until {@link #faults(boolean)}), or null.
   */
  static StandaloneCluster start(String name, int slots, String faults) {
    int[] webhookPorts = new int[slots];
    int[] healthPorts = new int[slots];
    List<String> args = new ArrayList<>(List.of("apiserver", "--port", "0"));
    for (int i = 0; i < slots; i++) {
      webhookPorts[i] = LabPorts.free();
      healthPorts[i] = LabPorts.free();
      args.addAll(List.of("--webhook-address", "127.0.0.1:" + webhookPorts[i]));
    }
    if (faults != null) {
      args.addAll(List.of("--inject-faults", faults, "--faults-off"));
    }
    Path kubeconfig = Locations.workDir().resolve(name).resolve("kubeconfig");
    try {
      Files.createDirectories(kubeconfig.getParent());
      Files.deleteIfExists(kubeconfig);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    args.addAll(List.of("--kubeconfig-out", kubeconfig.toString()));
    // the fault injector is a test fixture: the API server runs with trainer-apiserver's test-jar on its class path
    TrainerProcess process = TrainerProcess.start(name + "-apiserver", faults == null
        ? OperatorJar.commandLine(List.of("-Xmx1g"), args)
        : OperatorJar.commandLineWithApiServerTestFixtures(List.of("-Xmx1g"), args), Map.of());
    StandaloneCluster cluster = new StandaloneCluster(name, process, kubeconfig, webhookPorts, healthPorts);
    try {
      cluster.awaitApi();
    } catch (RuntimeException | AssertionError e) {
      cluster.close();
      throw new AssertionError("the API server did not start: " + e + "\n" + process.logTail(40), e);
    }
    return cluster;
  }

  private void awaitApi() {
    Config config = apiServer.awaitKubeconfig(kubeconfig, START_TIMEOUT);
    config.setHttp2Disable(true);
    // the burst's creates wait for the webhooks on two busy cores
    config.setRequestTimeout(60_000);
    client = new KubernetesClientBuilder().withConfig(config).build();
    Config once = new io.fabric8.kubernetes.client.ConfigBuilder(config).build();
    once.setRequestRetryBackoffLimit(0);
    clientWithoutRetries = new KubernetesClientBuilder().withConfig(once).build();
    await("the shipped runtimes").atMost(START_TIMEOUT).ignoreExceptions()
        .until(() -> client.resources(ClusterTrainingRuntime.class).withName("torch-distributed").get() != null);
  }

  /**
   * Starts an operator in {@code slot} ({@code run} against this server, leader-election identity
   * {@code <name>-op<slot>_<uuid>}, no client rate limit unless {@code extraArgs} say otherwise) and waits until its
   * webhook server listens.
   */
  TrainerProcess startOperator(int slot, List<String> extraArgs) {
    List<String> args = new ArrayList<>(List.of("run", "--kubeconfig", kubeconfig.toString(),
        "--webhook-port", Integer.toString(webhookPorts[slot]), "--health-port", Integer.toString(healthPorts[slot]),
        "--metrics-port", "0", "--bind-address", "127.0.0.1", "--kube-api-qps", "0"));
    args.addAll(extraArgs);
    String processName = identityPrefix(slot);
    TrainerProcess operator = TrainerProcess.start(processName, List.of("-Xmx768m"), args,
        Map.of("HOSTNAME", processName));
    operators.add(operator);
    latestBySlot.put(slot, operator);
    try {
      await(processName + "'s webhook server").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(100))
          .until(() -> {
            if (!operator.isAlive()) {
              throw new AssertionError(processName + " exited");
            }
            return listening(webhookPorts[slot]);
          });
    } catch (RuntimeException | AssertionError e) {
      throw new AssertionError(processName + " did not start: " + e + "\n" + operator.logTail(40), e);
    }
    return operator;
  }

  /** The leader-election identity of the operator in {@code slot} starts with this. */
  String identityPrefix(int slot) {
    return name + "-op" + slot;
  }

  /**
   * Waits until the operator of {@code slot} answers 200 on {@code /readyz}; fails at once when it exits, and with
   * its log and its failing checks when the deadline passes.
   */
  void awaitReady(int slot, Duration deadline) {
    TrainerProcess operator = latestBySlot.get(slot);
    try {
      await(identityPrefix(slot) + " ready").atMost(deadline).pollInterval(Duration.ofMillis(200)).until(() -> {
        operator.assertAlive();
        return ready(slot);
      });
    } catch (RuntimeException | AssertionError e) {
      throw new AssertionError(identityPrefix(slot) + " is not ready: " + e + "\n/readyz: " + readyz(slot)
          + "\n" + logs(), e);
    }
  }

  private String readyz(int slot) {
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + healthPorts[slot] + "/readyz")).timeout(Duration.ofSeconds(2))
          .build(), HttpResponse.BodyHandlers.ofString());
      return response.statusCode() + " " + response.body();
    } catch (IOException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e.toString();
    }
  }

  /** Whether the operator of {@code slot} answers 200 on {@code /readyz}. */
  boolean ready(int slot) {
    try {
      HttpResponse<Void> response = http.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + healthPorts[slot] + "/readyz")).timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  KubernetesClient client() {
    return client;
  }

  /** A client that reports every failure at once, to see each answer as it is. */
  KubernetesClient clientWithoutRetries() {
    return clientWithoutRetries;
  }

  /** {@code GET /debug/stats}: faults injected, requests by client, verb and resource. */
  JsonNode stats() {
    try {
      return JSON.readTree(debugStats("GET", ""));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Arms or disarms the API server's fault injector. */
  void faults(boolean on) {
    debugStats("POST", "?faults=" + (on ? "on" : "off"));
  }

  /** Through the client's HTTP client: the server's CA and the admin token from the kubeconfig. */
  private String debugStats(String method, String query) {
    io.fabric8.kubernetes.client.http.HttpClient api = client.getHttpClient();
    io.fabric8.kubernetes.client.http.HttpRequest.Builder request = api.newHttpRequestBuilder()
        .uri(client.getMasterUrl().toString().replaceAll("/$", "") + "/debug/stats" + query);
    if (method.equals("POST")) {
      request.post("application/json", "");
    }
    try {
      io.fabric8.kubernetes.client.http.HttpResponse<String> response = api.sendAsync(request.build(), String.class)
          .get(30, java.util.concurrent.TimeUnit.SECONDS);
      if (response.code() != 200) {
        throw new IllegalStateException(method + " /debug/stats" + query + ": " + response.code() + " "
            + response.body());
      }
      return response.body();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(method + " /debug/stats" + query, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }


  String logs() {
    StringBuilder out = new StringBuilder(apiServer.logTail(20));
    operators.forEach(operator -> out.append('\n').append(operator.logTail(30)));
    return out.toString();
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }


  @Override
  public void close() {
    if (client != null) {
      client.close();
      clientWithoutRetries.close();
    }
    operators.forEach(TrainerProcess::close);
    apiServer.close();
  }
}
