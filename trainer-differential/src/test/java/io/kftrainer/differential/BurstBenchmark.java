package io.kftrainer.differential;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kftrainer.differential.ControllerRun.Controller;
import io.kftrainer.lab.Lab;
import io.kftrainer.lab.LabBinaries;
import io.kftrainer.lab.LabProcess;
import io.kftrainer.lab.UpstreamTrainer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A burst of TrainJobs through upstream's controller and through ours, each on a fresh lab (issue 39, section 2):
 * {@code -Ddifferential.burst=N} TrainJobs on upstream's {@code torch-distributed}, 2 nodes each, sent by
 * {@code -Ddifferential.clients=C} (default 8) concurrent clients; the time until every JobSet exists and until every
 * TrainJob is {@code Complete}, the controller's CPU seconds and peak resident memory, and kube-apiserver's requests
 * per TrainJob by verb and resource ({@code apiserver_request_total}, every client's: the other clients, JobSet,
 * the controller manager, the scheduler and kwok, do the same for both); before the burst, the latency of a TrainJob
 * create through the controller's webhooks against a ConfigMap create (p50, p99 of
 * {@code -Ddifferential.latencySamples}, 200 by default, alternated); over the burst, the reconcile latency p50/p99
 * from the controller's own {@code controller_runtime_reconcile_time_seconds}; after it, the controller's writes in
 * {@code -Ddifferential.idleMinutes} (5 by default) idle minutes from its own {@code rest_client_requests_total}.
 * {@code -Ddifferential.warmup=N} first runs N TrainJobs to {@code Complete} in another namespace, so that the
 * figures are those of a controller that has been running (caches filled, the JVM's code compiled), not of its
 * first minutes. Ours' CPU is also split by kind of thread ({@link ThreadCpu}: the JIT's compilers, GC and VM, the rest).
 * {@code -Ddifferential.ourJvmOptions="..."} adds JVM options to ours (a flight recording, another collector).
 * The lab's controller manager and scheduler run without their client rate limits ({@link Lab#startForScale}), so
 * that the time to {@code Complete} is the controllers'; {@code -Ddifferential.labLimits=default} keeps their
 * defaults (20 and 50 QPS), as a cluster installed without tuning has them.
 * Not run by {@code verify}: without the property it reports itself skipped.
 */
class BurstBenchmark {

  private static final int BURST = Integer.getInteger("differential.burst", 0);
  private static final int CLIENTS = Integer.getInteger("differential.clients", 8);
  /** TrainJobs run to {@code Complete} in a namespace of their own before the measured burst (0: none). */
  private static final int WARMUP = Integer.getInteger("differential.warmup", 0);
  private static final int LATENCY_SAMPLES = Integer.getInteger("differential.latencySamples", 200);
  private static final int IDLE_MINUTES = Integer.getInteger("differential.idleMinutes", 5);
  /** {@code -Ddifferential.controllers=ours} (or {@code upstream}) runs one of the two. */
  private static final List<Controller> CONTROLLERS = Stream.of(System.getProperty("differential.controllers",
      "upstream,ours").split(",")).map(label -> Stream.of(Controller.values()).filter(c -> c.label.equals(label.trim()))
      .findFirst().orElseThrow(() -> new IllegalArgumentException("-Ddifferential.controllers: no controller "
          + label))).toList();
  /** Whether the lab's controller manager and scheduler keep their default client rate limits. */
  private static final boolean LAB_DEFAULT_LIMITS = "default".equals(System.getProperty("differential.labLimits",
      "none"));
  /** Enough kwok nodes that the pods of 1,000 TrainJobs are never short of room (110 pods a node). */
  private static final int NODES = 20;
  private static final String NAMESPACE = "burst";
  private static final Pattern REQUESTS = Pattern.compile(
      "^apiserver_request_total\\{(.*)} (\\S+)$", Pattern.MULTILINE);
  /** Upstream's controller is named {@code trainjob_controller}; ours was {@code trainjob}. */
  private static final Pattern RECONCILE_BUCKETS = Pattern.compile("^controller_runtime_reconcile_time_seconds_bucket"
      + "\\{[^}]*controller=\"trainjob(?:_controller)?\"[^}]*le=\"([^\"]+)\"[^}]*} (\\S+)$", Pattern.MULTILINE);
  private static final Pattern CLIENT_REQUESTS = Pattern.compile("^rest_client_requests_total\\{(.*)} (\\S+)$",
      Pattern.MULTILINE);

  @Test
  void burst() throws Exception {
    Assumptions.assumeTrue(BURST > 0, "set -Ddifferential.burst=N to run the burst");
    LabBinaries binaries = LabBinaries.find().orElse(null);
    Assumptions.assumeTrue(binaries != null, LabBinaries::missingReason);
    Assumptions.assumeTrue(UpstreamTrainer.binary(binaries).isPresent(), () -> UpstreamTrainer.missingReason(binaries));
    Path work = Path.of(System.getProperty("trainer.lab.workDir", "target/lab"))
        .resolve("burst-" + ProcessHandle.current().pid());
    List<String> report = new ArrayList<>();
    for (Controller controller : CONTROLLERS) {
      report.add(run(controller, binaries, work.resolve(controller.label)));
    }
    System.out.printf("Burst of %d TrainJobs (torch-distributed, 2 nodes each), %d clients, %d kwok nodes, %s, the"
        + " lab's controller manager and scheduler %s:%n%s%n",
        BURST, CLIENTS, NODES, WARMUP > 0 ? "after a warm-up of " + WARMUP : "on fresh controllers",
        LAB_DEFAULT_LIMITS ? "with their default client rate limits" : "without client rate limits",
        String.join("\n", report));
  }

  private static String run(Controller controller, LabBinaries binaries, Path work) throws Exception {
    try (Lab lab = LAB_DEFAULT_LIMITS ? Lab.start(binaries, work, NODES) : Lab.startForScale(binaries, work, NODES)) {
      long started = System.nanoTime();
      AutoCloseable running;
      LabProcess process;
      String executable;
      URI metrics;
      if (controller == Controller.UPSTREAM) {
        UpstreamTrainer upstream = UpstreamTrainer.start(lab, binaries, work.resolve("trainer-controller-manager"));
        running = upstream;
        process = upstream.process();
        executable = UpstreamTrainer.COMMAND;
        metrics = upstream.metrics();
      } else {
        OurOperator ours = OurOperator.start(lab, work.resolve("trainer"));
        running = ours;
        process = ours.process();
        executable = "java";
        metrics = ours.metrics();
      }
      SSLContext trust = labTrust(lab);
      double ready = (System.nanoTime() - started) / 1e9;
      try (running) {
        UpstreamTrainer.installRuntimes(lab, binaries, process);
        if (WARMUP > 0) {
          // a controller that has run a while: its caches filled, ours' JIT done with the code a TrainJob takes
          ControllerRun.createNamespace(lab, "warmup");
          send(lab, "warmup", WARMUP);
          Awaitility.await("every warm-up TrainJob Complete").atMost(Duration.ofMinutes(30))
              .pollInterval(Duration.ofSeconds(1)).until(() -> allComplete(lab, "warmup", WARMUP));
        }
        ControllerRun.createNamespace(lab, NAMESPACE);
        String createLatency = createLatency(lab);
        ProcessHandle component = process.component(executable).orElseThrow();
        Duration cpuBefore = component.info().totalCpuDuration().orElse(Duration.ZERO);
        Map<String, Double> threadsBefore = ThreadCpu.read(component.pid());
        Map<String, Double> requestsBefore = requests(lab);
        String exposition = scrape(metrics, trust);
        Map<Double, Double> reconcilesBefore = reconcileBuckets(exposition);

        long start = System.nanoTime();
        send(lab, NAMESPACE, BURST);
        double createdAt = (System.nanoTime() - start) / 1e9;
        double[] jobSetsAt = {0};
        Awaitility.await("every JobSet and every TrainJob Complete").atMost(Duration.ofMinutes(30))
            .pollInterval(Duration.ofSeconds(1)).until(() -> {
              if (jobSetsAt[0] == 0 && lab.admin().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
                  .inNamespace(NAMESPACE).list().getItems().size() == BURST) {
                jobSetsAt[0] = (System.nanoTime() - start) / 1e9;
              }
              return jobSetsAt[0] > 0 && allComplete(lab, NAMESPACE, BURST);
            });
        double completeAt = (System.nanoTime() - start) / 1e9;
        double cpu = (component.info().totalCpuDuration().orElse(Duration.ZERO).minus(cpuBefore)).toMillis() / 1e3;
        long peakKib = peakKib(component);
        String byThread = controller == Controller.OURS
            ? " (" + ThreadCpu.between(threadsBefore, ThreadCpu.read(component.pid()), cpu) + ")" : "";
        exposition = scrape(metrics, trust);
        Map<Double, Double> reconciles = reconcileBuckets(exposition);
        reconciles.replaceAll((le, count) -> count - reconcilesBefore.getOrDefault(le, 0.0));
        Map<String, Double> requests = requests(lab);
        requests.replaceAll((key, value) -> value - requestsBefore.getOrDefault(key, 0.0));
        StringBuilder perTrainJob = new StringBuilder();
        requests.entrySet().stream().filter(e -> e.getValue() / BURST >= 0.05)
            .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
            .forEach(e -> perTrainJob.append(String.format(" %s %.2f;", e.getKey(), e.getValue() / BURST)));
        // the controller's own writes while nothing happens: every TrainJob stays Complete for the whole window
        Map<String, Double> writesBefore = writes(exposition);
        if (IDLE_MINUTES > 0) {
          Duration idle = Duration.ofMinutes(IDLE_MINUTES);
          Awaitility.await("every TrainJob still Complete after " + IDLE_MINUTES + " idle minutes").during(idle)
              .atMost(idle.plusMinutes(1)).pollInterval(Duration.ofSeconds(10)).until(() -> allComplete(lab, NAMESPACE, BURST));
        }
        Map<String, Double> idleWrites = writes(scrape(metrics, trust));
        idleWrites.replaceAll((method, count) -> count - writesBefore.getOrDefault(method, 0.0));
        idleWrites.values().removeIf(count -> count == 0);
        return String.format("%-8s ready %.1f s | %s | created %.1f s | every JobSet %.1f s | every TrainJob "
                + "Complete %.1f s | controller CPU %.1f s (%.1f ms per TrainJob)%s | peak RSS %d MiB | reconcile "
                + "p50 %s, p99 %s (%.0f reconciles) | writes in %d idle minutes: %s | API requests per TrainJob, all "
                + "clients:%s", controller.label, ready, createLatency, createdAt, jobSetsAt[0], completeAt, cpu,
            cpu * 1000 / BURST, byThread, peakKib / 1024, quantile(reconciles, 0.5), quantile(reconciles, 0.99),
            reconciles.getOrDefault(Double.POSITIVE_INFINITY, 0.0), IDLE_MINUTES, idleWrites, perTrainJob);
      }
    }
  }

  private static GenericKubernetesResource trainJob(String name) {
    return Serialization.unmarshal("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: %s
        spec:
          runtimeRef:
            name: torch-distributed
          trainer:
            numNodes: 2
        """.formatted(name), GenericKubernetesResource.class);
  }

  /** Creates {@code count} TrainJobs in {@code namespace} from {@link #CLIENTS} concurrent clients. */
  private static void send(Lab lab, String namespace, int count) throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<?>> sent = new ArrayList<>();
      for (int client = 0; client < CLIENTS; client++) {
        int first = client;
        sent.add(clients.submit(() -> {
          for (int i = first; i < count; i += CLIENTS) {
            lab.admin().resource(trainJob(namespace + "-" + i)).inNamespace(namespace).create();
          }
          return null;
        }));
      }
      for (Future<?> f : sent) {
        f.get();
      }
    } finally {
      clients.shutdown();
    }
  }

  private static boolean allComplete(Lab lab, String namespace, int count) {
    return lab.admin().genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(namespace)
        .list().getItems().stream().filter(BurstBenchmark::complete).count() == count;
  }

  private static boolean complete(GenericKubernetesResource trainJob) {
    List<Map<String, Object>> conditions = trainJob.get("status", "conditions");
    return conditions != null && conditions.stream()
        .anyMatch(c -> "Complete".equals(c.get("type")) && "True".equals(c.get("status")));
  }

  /** The process's peak resident set ({@code VmHWM}), in KiB. */
  private static long peakKib(ProcessHandle process) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    return -1;
  }

  /**
   * {@code p50 / p99} of TrainJob creates (through the controller's webhooks) and of ConfigMap creates, one client,
   * alternated, in a namespace of their own; the TrainJobs suspended, so that they cost the controller little.
   */
  private static String createLatency(Lab lab) {
    String namespace = "latency";
    ControllerRun.createNamespace(lab, namespace);
    List<Double> trainJobs = new ArrayList<>();
    List<Double> configMaps = new ArrayList<>();
    for (int i = 0; i < LATENCY_SAMPLES; i++) {
      GenericKubernetesResource trainJob = trainJob("latency-" + i);
      trainJob.<Map<String, Object>>get("spec").put("suspend", true);
      long start = System.nanoTime();
      lab.admin().resource(trainJob).inNamespace(namespace).create();
      trainJobs.add((System.nanoTime() - start) / 1e6);
      start = System.nanoTime();
      lab.admin().configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
          .withName("latency-" + i).endMetadata().addToData("k", "v").build()).create();
      configMaps.add((System.nanoTime() - start) / 1e6);
    }
    return String.format("create p50/p99: TrainJob %.1f / %.1f ms, ConfigMap %.1f / %.1f ms",
        percentile(trainJobs, 0.5), percentile(trainJobs, 0.99), percentile(configMaps, 0.5),
        percentile(configMaps, 0.99));
  }

  private static double percentile(List<Double> values, double q) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
  }

  /** {@code controller_runtime_reconcile_time_seconds_bucket} of the TrainJob controller, cumulative, by {@code le}. */
  private static Map<Double, Double> reconcileBuckets(String exposition) {
    Map<Double, Double> buckets = new TreeMap<>();
    Matcher line = RECONCILE_BUCKETS.matcher(exposition);
    while (line.find()) {
      double le = line.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(line.group(1));
      buckets.merge(le, Double.parseDouble(line.group(2)), Double::sum);
    }
    return buckets;
  }

  /** The {@code q} quantile of cumulative buckets, interpolated within its bucket as Prometheus' histogram_quantile. */
  private static String quantile(Map<Double, Double> cumulative, double q) {
    double total = cumulative.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
    if (total == 0) {
      return "n/a";
    }
    double rank = q * total;
    double lowerBound = 0;
    double lowerCount = 0;
    for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
      if (bucket.getValue() >= rank) {
        if (bucket.getKey().isInfinite()) {
          return String.format("> %.3f s", lowerBound);
        }
        double within = (rank - lowerCount) / Math.max(bucket.getValue() - lowerCount, 1e-9);
        return String.format("%.1f ms", (lowerBound + (bucket.getKey() - lowerBound) * within) * 1000);
      }
      lowerBound = bucket.getKey();
      lowerCount = bucket.getValue();
    }
    return "n/a";
  }

  /** The controller's own {@code rest_client_requests_total} of writes, by method. */
  private static Map<String, Double> writes(String exposition) {
    Map<String, Double> writes = new TreeMap<>();
    Matcher line = CLIENT_REQUESTS.matcher(exposition);
    while (line.find()) {
      String method = label(line.group(1), "method");
      if (List.of("POST", "PUT", "PATCH", "DELETE").contains(method)) {
        writes.merge(method, Double.parseDouble(line.group(2)), Double::sum);
      }
    }
    return writes;
  }

  /** The lab's CA, which issued kube-apiserver's certificate and our operator's serving certificate. */
  private static SSLContext labTrust(Lab lab) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("lab-ca", lab.caCertificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  private static String scrape(URI metrics, SSLContext trust) throws Exception {
    return scrape(metrics, trust, null);
  }

  private static String scrape(URI metrics, SSLContext trust, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(metrics);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response = HttpClient.newBuilder().sslContext(trust).build().send(request.build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(metrics + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** kube-apiserver's {@code apiserver_request_total}, summed by {@code verb resource}. */
  private static Map<String, Double> requests(Lab lab) throws Exception {
    String token = Config.fromKubeconfig(Files.readString(lab.adminKubeconfig())).getAutoOAuthToken();
    String exposition = scrape(URI.create(lab.url() + "/metrics"), labTrust(lab), token);
    Map<String, Double> sums = new TreeMap<>();
    Matcher line = REQUESTS.matcher(exposition);
    while (line.find()) {
      String labels = line.group(1);
      String key = label(labels, "verb") + " " + label(labels, "resource")
          + (label(labels, "subresource").isEmpty() ? "" : "/" + label(labels, "subresource"));
      sums.merge(key, Double.parseDouble(line.group(2)), Double::sum);
    }
    return sums;
  }

  private static String label(String labels, String name) {
    Matcher value = Pattern.compile("(?:^|,)" + name + "=\"([^\"]*)\"").matcher(labels);
    return value.find() ? value.group(1) : "";
  }
}
