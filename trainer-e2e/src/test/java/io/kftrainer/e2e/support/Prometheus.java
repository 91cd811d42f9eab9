package io.kftrainer.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kftrainer.lab.LabPorts;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Prometheus ({@code /usr/bin/prometheus}, which {@code .ci/run} installs) as a process on 127.0.0.1,
 * scraping the operator's HTTPS {@code /metrics} every second as the ServiceMonitor describes it (the scraper's
 * bearer token, the operator's CA, the Service's DNS name), with the operator's alert rules loaded; and its HTTP API.
 * Its database starts empty in {@code dir}; its log is {@code dir/prometheus.log}.
 */
public final class Prometheus implements AutoCloseable {

  /** The scrape job, named as the ServiceMonitor's job is (the Service's name). */
  public static final String JOB = "kubeflow-trainer-controller-manager";
  private static final Path BINARY = Path.of("/usr/bin/prometheus");
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration READY = Duration.ofSeconds(60);

  private final Process process;
  private final int port;

  private Prometheus(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Skips the calling test where Prometheus is not installed. */
  public static void assumeInstalled() {
    Assumptions.assumeTrue(Files.isExecutable(BINARY), "no " + BINARY + ": apt-get install prometheus");
  }

  /**
   * Starts Prometheus scraping {@code target} ({@code host:port}) over HTTPS.
   *
   * @param serverName the name the operator's certificate is checked against; null: the target's host
   * @param caPem the CA the certificate must chain to
   * @param rules a Prometheus rules file
   */
  public static Prometheus scraping(Path dir, String target, String serverName, String token, byte[] caPem,
      Path rules) throws IOException, InterruptedException {
    assumeInstalled();
    Directories.deleteRecursively(dir);
    Files.createDirectories(dir);
    Path tokenFile = Files.createFile(dir.resolve("token"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tokenFile, token);
    Files.write(dir.resolve("ca.crt"), caPem);
    int port = LabPorts.free();
    Files.writeString(dir.resolve("prometheus.yml"), """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        rule_files:
          - %s
        scrape_configs:
          - job_name: %s
            scheme: https
            honor_labels: true
            authorization:
              credentials_file: %s
            tls_config:
              ca_file: %s
        %s
            static_configs:
              - targets: ["%s"]
        """.formatted(rules, JOB, tokenFile, dir.resolve("ca.crt"),
        serverName == null ? "" : "      server_name: " + serverName, target));
    Process process = new ProcessBuilder(BINARY.toString(), "--config.file=" + dir.resolve("prometheus.yml"),
        "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
        .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    Prometheus prometheus = new Prometheus(process, port);
    try {
      prometheus.awaitReady(dir.resolve("prometheus.log"));
    } catch (RuntimeException e) {
      prometheus.close();
      throw e;
    }
    return prometheus;
  }

  /**
   * Waits until Prometheus answers {@code /-/ready}: its API refuses connections until it has opened its database
   * and listens, which on a busy machine takes a second or more after the process started.
   */
  private void awaitReady(Path log) {
    try {
      await("Prometheus ready on 127.0.0.1:" + port).atMost(READY).pollInterval(Duration.ofMillis(100))
          .ignoreExceptionsInstanceOf(IOException.class).until(() -> {
            if (!process.isAlive()) {
              throw new IllegalStateException("Prometheus exited with " + process.exitValue() + ": "
                  + Files.readString(log));
            }
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
          });
    } catch (ConditionTimeoutException e) {
      throw new IllegalStateException(e.getMessage() + "; its log: " + log, e);
    }
  }

  /** The result of an instant query (a vector); fails the test if Prometheus refuses the query. */
  public JsonNode query(String promql) throws IOException, InterruptedException {
    JsonNode answer = api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    assertThat(answer.path("status").asText()).as(promql + ": " + answer).isEqualTo("success");
    return answer.path("data").path("result");
  }

  /** The queries whose result is empty. */
  public List<String> withoutSeries(Iterable<String> queries) throws IOException, InterruptedException {
    List<String> empty = new ArrayList<>();
    for (String query : queries) {
      if (query(query).isEmpty()) {
        empty.add(query);
      }
    }
    return empty;
  }

  /** The rules of the loaded rules file's first group, as {@code /api/v1/rules} reports them. */
  public JsonNode rules() throws IOException, InterruptedException {
    return api("/api/v1/rules").path("data").path("groups").path(0).path("rules");
  }

  /** Whether every rule has been evaluated at least once. */
  public static boolean allEvaluated(JsonNode rules) {
    for (JsonNode rule : rules) {
      if (rule.path("lastEvaluation").asText().startsWith("0001")) {
        return false;
      }
    }
    return true;
  }

  /** The queries of a Grafana dashboard, its variables set to every job and a 1-minute rate interval. */
  public static List<String> dashboardQueries(Path dashboard) throws IOException {
    return GrafanaDashboard.read(dashboard).queries();
  }

  /**
   * The result of a range query (a matrix: each series' {@code [seconds, "value"]} pairs, {@code "NaN"} where a
   * quantile had no observation) from {@code start} to {@code end}, a point every {@code step}; fails the test if
   * Prometheus refuses the query.
   */
  public JsonNode queryRange(String promql, Instant start, Instant end, Duration step)
      throws IOException, InterruptedException {
    JsonNode answer = api("/api/v1/query_range?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
        + "&start=" + start.getEpochSecond() + "&end=" + end.getEpochSecond() + "&step=" + step.toSeconds());
    assertThat(answer.path("status").asText()).as(promql + ": " + answer).isEqualTo("success");
    return answer.path("data").path("result");
  }

  private JsonNode api(String path) throws IOException, InterruptedException {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
