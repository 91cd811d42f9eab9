package io.kftrainer.benchmarks.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A burst of TrainJobs through {@code local --no-execute}, created at once from {@value #CLIENTS} threads of this
 * process, until every one has its JobSet: the operator's throughput. Compared, in the same {@code local} and
 * alternately, with a bare client that makes the same writes per TrainJob itself: the TrainJob's create (through
 * admission, with {@code spec.managedBy} another controller's so that the operator leaves it alone), then the
 * operator's writes, copied from what the operator wrote in a warm-up burst (its ConfigMaps and the JobSet, each
 * created or server-side applied by field manager {@code trainer} as the operator wrote it). The gap is
 * the operator's own work per TrainJob, between the events it gets and the writes it makes. Also prints the
 * requests per TrainJob of an operator burst, by client and verb, from the server's {@code /debug/stats}.
 */
final class BurstFigures {

  static final int CLIENTS = 64;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TRAINJOBS = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/%s/trainjobs";
  private static final String JOBSETS = "/apis/jobset.x-k8s.io/v1alpha2/namespaces/%s/jobsets";
  private static final String CONFIGMAPS = "/api/v1/namespaces/%s/configmaps";
  private static final String OTHER_CONTROLLER = "kueue.x-k8s.io/multikueue";

  /** Seconds per burst of each kind, and the operator's requests per TrainJob by client and verb. */
  record Result(int count, List<Double> operator, List<Double> bare, Map<String, Double> requestsPerTrainJob,
      List<Double> operatorCpu, List<Double> bareCpu) {

    double operatorMedian() {
      return median(operator);
    }

    double bareMedian() {
      return median(bare);
    }

    private static double median(List<Double> seconds) {
      List<Double> sorted = new ArrayList<>(seconds);
      sorted.sort(Double::compare);
      return sorted.get((sorted.size() - 1) / 2);
    }
  }

  private final LocalProcess local;
  private final HttpClient http;
  private int namespaces;
  /** The operator's children of a TrainJob, in the order it wrote them: how and where it wrote each. */
  private record Child(JsonNode template, boolean applied, String collection) {
  }

  private final List<Child> children = new ArrayList<>();

  BurstFigures(LocalProcess local) {
    this.local = local;
    this.http = local.newHttpClient();
  }

  /** A warm-up burst of each kind, then {@code rounds} alternated bursts of {@code count} of each. */
  Result run(int count, int rounds) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(CLIENTS);
    try {
      String warmUp = operatorBurst(threads, Math.min(count, 200));
      templates(warmUp);
      bareBurst(threads, Math.min(count, 200));
      List<Double> operator = new ArrayList<>();
      List<Double> bare = new ArrayList<>();
      List<Double> operatorCpu = new ArrayList<>();
      List<Double> bareCpu = new ArrayList<>();
      Map<String, Double> requests = Map.of();
      for (int round = 0; round < rounds; round++) {
        send("DELETE", "/debug/stats", null, null);
        long start = System.nanoTime();
        long cpu = local.cpuMillis();
        operatorBurst(threads, count);
        operator.add((System.nanoTime() - start) / 1e9);
        operatorCpu.add((local.cpuMillis() - cpu) / 1e3);
        if (round == 0) {
          requests = requestsPerTrainJob(count);
        }
        start = System.nanoTime();
        cpu = local.cpuMillis();
        bareBurst(threads, count);
        bare.add((System.nanoTime() - start) / 1e9);
        bareCpu.add((local.cpuMillis() - cpu) / 1e3);
      }
      return new Result(count, operator, bare, requests, operatorCpu, bareCpu);
    } finally {
      threads.shutdownNow();
    }
  }

  /** Creates {@code count} TrainJobs for the operator in a new namespace; returns once each has its JobSet. */
  private String operatorBurst(ExecutorService threads, int count) throws Exception {
    String namespace = namespace();
    // a watch, not a list per poll: listing the namespace's JobSets over and over was a fifth of the server's CPU
    Set<String> jobSets = ConcurrentHashMap.newKeySet();
    CountDownLatch all = new CountDownLatch(count);
    CompletableFuture<HttpResponse<Stream<String>>> watch = http.sendAsync(
        local.request(String.format(JOBSETS, namespace) + "?watch=1").build(),
        HttpResponse.BodyHandlers.ofLines());
    Future<?> reader = threads.submit(() -> {
      try (Stream<String> events = watch.get().body()) {
        events.forEach(line -> {
          JsonNode event = parse(line);
          if ("ADDED".equals(event.path("type").asText())
              && jobSets.add(event.path("object").path("metadata").path("name").asText())) {
            all.countDown();
          }
        });
      }
      return null;
    });
    List<Future<?>> creates = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = String.format("t-%05d", i);
      creates.add(threads.submit(() -> post(String.format(TRAINJOBS, namespace), trainJob(name, null))));
    }
    for (Future<?> create : creates) {
      create.get();
    }
    try {
      if (!all.await(10, TimeUnit.MINUTES)) {
        throw new IllegalStateException("only " + jobSets.size() + " of " + count + " JobSets after 10 minutes");
      }
    } finally {
      reader.cancel(true);
      watch.thenAccept(response -> response.body().close());
    }
    return namespace;
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The same writes per TrainJob from this process: the TrainJob (left alone by the operator), its children. */
  private void bareBurst(ExecutorService threads, int count) throws Exception {
    String namespace = namespace();
    List<Future<?>> writes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = String.format("t-%05d", i);
      writes.add(threads.submit(() -> {
        JsonNode created = post(String.format(TRAINJOBS, namespace), trainJob(name, OTHER_CONTROLLER));
        String uid = created.path("metadata").path("uid").asText();
        for (Child template : children) {
          JsonNode child = child(template.template(), namespace, name, uid);
          String collection = String.format(template.collection(), namespace);
          if (template.applied()) {
            apply(collection + "/" + child.path("metadata").path("name").asText(), child);
          } else {
            post(collection, JSON.writeValueAsString(child));
          }
        }
        return null;
      }));
    }
    for (Future<?> write : writes) {
      write.get();
    }
  }

  private String namespace() throws IOException, InterruptedException {
    String namespace = "burst-" + namespaces++;
    post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace
        + "\"}}");
    return namespace;
  }

  private static String trainJob(String name, String managedBy) {
    return "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":{\"name\":\"" + name
        + "\"},\"spec\":{\"runtimeRef\":{\"name\":\"torch-distributed\"},"
        + (managedBy == null ? "" : "\"managedBy\":\"" + managedBy + "\",")
        + "\"trainer\":{\"numNodes\":2,\"command\":[\"python3\",\"-c\",\"print(1)\"]}}}";
  }

  /**
   * The operator's children of one warm-up TrainJob, in the order it wrote them (their resourceVersions), each
   * created or applied as the operator did (an apply leaves an {@code Apply} entry in the managed fields).
   */
  private void templates(String namespace) throws IOException, InterruptedException {
    String trainJob = "t-00000";
    String selector = "?labelSelector=trainer.kubeflow.org/trainjob-name%3D" + trainJob;
    List<JsonNode> stored = new ArrayList<>();
    List<String> collections = new ArrayList<>();
    for (String collection : List.of(CONFIGMAPS, JOBSETS)) {
      for (JsonNode item : get(String.format(collection, namespace) + selector).path("items")) {
        stored.add(item);
        collections.add(collection);
      }
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < stored.size(); i++) {
      order.add(i);
    }
    order.sort(java.util.Comparator.comparingLong(i -> stored.get(i).path("metadata").path("resourceVersion")
        .asLong()));
    for (int i : order) {
      boolean applied = false;
      for (JsonNode entry : stored.get(i).path("metadata").path("managedFields")) {
        applied |= "Apply".equals(entry.path("operation").asText());
      }
      children.add(new Child(template(stored.get(i), trainJob), applied, collections.get(i)));
    }
    if (children.stream().noneMatch(c -> c.collection().equals(JOBSETS))) {
      throw new IllegalStateException("no JobSet of TrainJob " + trainJob + " in " + namespace);
    }
  }

  /** An object as its writer applied it: no status, no server-set metadata; {@code trainJob}'s name a placeholder. */
  private static JsonNode template(JsonNode stored, String trainJob) throws IOException {
    ObjectNode copy = stored.deepCopy();
    copy.remove("status");
    ObjectNode metadata = (ObjectNode) copy.get("metadata");
    metadata.retain("name", "labels", "annotations", "ownerReferences");
    return JSON.readTree(JSON.writeValueAsString(copy).replace(trainJob, "${TRAINJOB}"));
  }

  private static JsonNode child(JsonNode template, String namespace, String trainJob, String uid) throws IOException {
    ObjectNode child = (ObjectNode) JSON.readTree(JSON.writeValueAsString(template).replace("${TRAINJOB}", trainJob));
    ((ObjectNode) child.get("metadata")).put("namespace", namespace);
    for (JsonNode owner : child.path("metadata").path("ownerReferences")) {
      ((ObjectNode) owner).put("uid", uid);
    }
    return child;
  }

  /** What the server counted since the last reset, per TrainJob: requests by client and verb. */
  private Map<String, Double> requestsPerTrainJob(int count) throws IOException, InterruptedException {
    JsonNode stats = get("/debug/stats");
    Map<String, Double> perTrainJob = new TreeMap<>();
    collect(stats, "", perTrainJob, count);
    return perTrainJob;
  }

  private static void collect(JsonNode node, String path, Map<String, Double> into, int count) {
    if (node.isNumber()) {
      into.put(path, node.asDouble() / count);
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      collect(field.getValue(), path.isEmpty() ? field.getKey() : path + " " + field.getKey(), into, count);
    }
  }

  private JsonNode post(String path, String body) throws IOException, InterruptedException {
    return send("POST", path, "application/json", body);
  }

  private void apply(String path, JsonNode object) throws IOException, InterruptedException {
    send("PATCH", path + "?fieldManager=trainer&force=true", "application/apply-patch+yaml",
        JSON.writeValueAsString(object));
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    return send("GET", path, null, null);
  }

  private JsonNode send(String method, String path, String contentType, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = local.request(path)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 300) {
      throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
          + response.body());
    }
    return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
  }
}
