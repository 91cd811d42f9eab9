package io.kftrainer.benchmarks.local;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Creates as a user's client meets them: sequential POSTs on one kept-alive HTTPS/1.1 connection to {@code local}'s
 * API server, with its kubeconfig's CA and bearer token as kubectl sends them, each kind in turn (so the machine's noise falls on all kinds alike), after a warm-up. A ConfigMap has
 * no webhook and no schema; a JobSet has its CRD's schema and CEL rules; a TrainJob has those and the operator's
 * mutating and validating webhooks (two HTTPS round trips to the operator's webhook server); a TrainJob with
 * {@code ?dryRun=All} is admitted and not stored. Also counts the threads the {@code local} JVM starts per 1,000
 * creates ({@code java.threads.started} before and after the measured creates).
 */
final class AdmissionFigures {

  static final String NAMESPACE = "admission";

  /** One kind of create: where it is POSTed and the body for the i-th one. */
  record Kind(String name, String path, IntFunction<String> body) {
  }

  /**
   * The figures of one run: latencies per kind, threads started per 1,000 creates, and the CPU time of the
   * {@code local} process per create of each kind (a block of creates of one kind; a TrainJob's includes the
   * operator's reconciles, a dry run's admission only), which the machine's load changes much less than latencies.
   */
  record Result(Map<String, Samples> latencies, double threadsPer1000, long liveThreads, Map<String, Double> cpuMillis) {

    double ratio(String kind, String base) {
      return latencies.get(kind).p50() / latencies.get(base).p50();
    }
  }

  static final List<Kind> ALL_KINDS = List.of(
      new Kind("ConfigMap (no webhook)", "/api/v1/namespaces/" + NAMESPACE + "/configmaps",
          i -> "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-" + i + "\"},"
              + "\"data\":{\"key\":\"value\"}}"),
      new Kind("JobSet (schema + CEL)", "/apis/jobset.x-k8s.io/v1alpha2/namespaces/" + NAMESPACE + "/jobsets",
          i -> "{\"apiVersion\":\"jobset.x-k8s.io/v1alpha2\",\"kind\":\"JobSet\",\"metadata\":{\"name\":\"js-" + i
              + "\"},\"spec\":{\"replicatedJobs\":[{\"name\":\"node\",\"replicas\":1,\"template\":{\"spec\":{"
              + "\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"node\","
              + "\"image\":\"busybox\",\"command\":[\"true\"]}]}}}}}]}}"),
      new Kind("TrainJob (+ 2 webhooks)", "/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + NAMESPACE
          + "/trainjobs", i -> trainJob("tj-" + i)),
      new Kind("TrainJob ?dryRun=All", "/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + NAMESPACE
          + "/trainjobs?dryRun=All", i -> trainJob("dry-" + i)));
  /** The kinds measured: all, or the one {@code -Dfigures.kind=N} names (0 to 3), to profile it alone. */
  static final List<Kind> KINDS = Integer.getInteger("figures.kind") == null ? ALL_KINDS
      : List.of(ALL_KINDS.get(Integer.getInteger("figures.kind")));

  private final LocalProcess local;
  private final HttpClient http;

  AdmissionFigures(LocalProcess local) {
    this.local = local;
    this.http = local.newHttpClient();
  }

  static String trainJob(String name) {
    return "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":{\"name\":\"" + name
        + "\"},\"spec\":{\"runtimeRef\":{\"name\":\"torch-distributed\"},\"trainer\":{\"numNodes\":1,"
        + "\"command\":[\"python3\",\"-c\",\"print(1)\"]}}}";
  }

  /** {@code warmUp} creates of each kind, then {@code rounds} measured ones. */
  Result run(int warmUp, int rounds) throws IOException, InterruptedException {
    post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NAMESPACE
        + "\"}}");
    Map<String, Samples> latencies = new LinkedHashMap<>();
    KINDS.forEach(kind -> latencies.put(kind.name(), new Samples()));
    for (int i = 0; i < warmUp; i++) {
      for (Kind kind : KINDS) {
        post(kind.path(), kind.body().apply(i));
      }
    }
    local.measuring();
    long threadsBefore = local.threadsStarted();
    for (int i = warmUp; i < warmUp + rounds; i++) {
      for (int k = 0; k < KINDS.size(); k++) {
        // rotate the order: no kind always follows the same one
        Kind kind = KINDS.get((i + k) % KINDS.size());
        String body = kind.body().apply(i);
        long start = System.nanoTime();
        post(kind.path(), body);
        latencies.get(kind.name()).add(System.nanoTime() - start);
      }
    }
    long threads = local.threadsStarted() - threadsBefore;
    Map<String, Double> cpu = new LinkedHashMap<>();
    int index = warmUp + rounds;
    for (Kind kind : KINDS) {
      long before = local.cpuMillis();
      for (int i = 0; i < rounds; i++) {
        post(kind.path(), kind.body().apply(index++));
      }
      cpu.put(kind.name(), (local.cpuMillis() - before) / (double) rounds);
    }
    return new Result(latencies, threads * 1000.0 / (rounds * KINDS.size()), local.threadsLive(), cpu);
  }

  private void post(String path, String body) throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(local.request(path)
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 201 && response.statusCode() != 200) {
      throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": "
          + response.body());
    }
  }
}
