package io.kftrainer.differential;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
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
 * the controller manager, the scheduler and kwok, do the same for both). Not run by {@code verify}: without the
 * property it reports itself skipped.
 */
class BurstBenchmark {

  private static final int BURST = Integer.getInteger("differential.burst", 0);
  private static final int CLIENTS = Integer.getInteger("differential.clients", 8);
  /** Enough kwok nodes that the pods of 1,000 TrainJobs are never short of room (110 pods a node). */
  private static final int NODES = 20;
  private static final String NAMESPACE = "burst";
  private static final Pattern REQUESTS = Pattern.compile(
      "^apiserver_request_total\\{(.*)} (\\S+)$", Pattern.MULTILINE);

  @Test
  void burst() throws Exception {
    Assumptions.assumeTrue(BURST > 0, "set -Ddifferential.burst=N to run the burst");
    LabBinaries binaries = LabBinaries.find().orElse(null);
    Assumptions.assumeTrue(binaries != null, LabBinaries::missingReason);
    Assumptions.assumeTrue(UpstreamTrainer.binary(binaries).isPresent(), () -> UpstreamTrainer.missingReason(binaries));
    Path work = Path.of(System.getProperty("trainer.lab.workDir", "target/lab"))
        .resolve("burst-" + ProcessHandle.current().pid());
    List<String> report = new ArrayList<>();
    for (Controller controller : List.of(Controller.UPSTREAM, Controller.OURS)) {
      report.add(run(controller, binaries, work.resolve(controller.label)));
    }
    System.out.printf("Burst of %d TrainJobs (torch-distributed, 2 nodes each), %d clients, %d kwok nodes:%n%s%n",
        BURST, CLIENTS, NODES, String.join("\n", report));
  }

  private static String run(Controller controller, LabBinaries binaries, Path work) throws Exception {
    try (Lab lab = Lab.start(binaries, work, NODES)) {
      long started = System.nanoTime();
      AutoCloseable running;
      LabProcess process;
      String executable;
      if (controller == Controller.UPSTREAM) {
        UpstreamTrainer upstream = UpstreamTrainer.start(lab, binaries, work.resolve("trainer-controller-manager"));
        running = upstream;
        process = upstream.process();
        executable = UpstreamTrainer.COMMAND;
      } else {
        OurOperator ours = OurOperator.start(lab, work.resolve("trainer"));
        running = ours;
        process = ours.process();
        executable = "java";
      }
      double ready = (System.nanoTime() - started) / 1e9;
      try (running) {
        UpstreamTrainer.installRuntimes(lab, binaries, process);
        lab.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
            .endMetadata().build()).create();
        Awaitility.await("the default ServiceAccount").atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> lab.admin().serviceAccounts().inNamespace(NAMESPACE).withName("default").get() != null);
        ProcessHandle component = process.component(executable).orElseThrow();
        Duration cpuBefore = component.info().totalCpuDuration().orElse(Duration.ZERO);
        Map<String, Double> requestsBefore = requests(lab);

        long start = System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> sent = new ArrayList<>();
        for (int client = 0; client < CLIENTS; client++) {
          int first = client;
          sent.add(clients.submit(() -> {
            for (int i = first; i < BURST; i += CLIENTS) {
              lab.admin().resource(trainJob("burst-" + i)).inNamespace(NAMESPACE).create();
            }
            return null;
          }));
        }
        for (Future<?> f : sent) {
          f.get();
        }
        clients.shutdown();
        double createdAt = (System.nanoTime() - start) / 1e9;
        double[] jobSetsAt = {0};
        Awaitility.await("every JobSet and every TrainJob Complete").atMost(Duration.ofMinutes(30))
            .pollInterval(Duration.ofSeconds(1)).until(() -> {
              if (jobSetsAt[0] == 0 && lab.admin().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
                  .inNamespace(NAMESPACE).list().getItems().size() == BURST) {
                jobSetsAt[0] = (System.nanoTime() - start) / 1e9;
              }
              return jobSetsAt[0] > 0 && lab.admin().genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
                  "TrainJob").inNamespace(NAMESPACE).list().getItems().stream().filter(BurstBenchmark::complete)
                  .count() == BURST;
            });
        double completeAt = (System.nanoTime() - start) / 1e9;
        double cpu = (component.info().totalCpuDuration().orElse(Duration.ZERO).minus(cpuBefore)).toMillis() / 1e3;
        long peakKib = peakKib(component);
        Map<String, Double> requests = requests(lab);
        requests.replaceAll((key, value) -> value - requestsBefore.getOrDefault(key, 0.0));
        StringBuilder perTrainJob = new StringBuilder();
        requests.entrySet().stream().filter(e -> e.getValue() / BURST >= 0.05)
            .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
            .forEach(e -> perTrainJob.append(String.format(" %s %.2f;", e.getKey(), e.getValue() / BURST)));
        return String.format("%-8s ready %.1f s | created %.1f s | every JobSet %.1f s | every TrainJob Complete "
                + "%.1f s | controller CPU %.1f s (%.1f ms per TrainJob) | peak RSS %d MiB | API requests per "
                + "TrainJob, all clients:%s", controller.label, ready, createdAt, jobSetsAt[0],
            completeAt, cpu, cpu * 1000 / BURST, peakKib / 1024, perTrainJob);
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

  /** kube-apiserver's {@code apiserver_request_total}, summed by {@code verb resource}. */
  private static Map<String, Double> requests(Lab lab) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("lab-ca", lab.caCertificate());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    String token = Config.fromKubeconfig(Files.readString(lab.adminKubeconfig())).getAutoOAuthToken();
    HttpResponse<String> metrics = HttpClient.newBuilder().sslContext(context).build().send(HttpRequest
        .newBuilder(URI.create(lab.url() + "/metrics")).header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofString());
    Map<String, Double> sums = new TreeMap<>();
    Matcher line = REQUESTS.matcher(metrics.body());
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
