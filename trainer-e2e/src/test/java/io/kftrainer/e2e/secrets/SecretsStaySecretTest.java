package io.kftrainer.e2e.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Kubectl;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.OperatorJar;
import io.kftrainer.e2e.support.TrainJobs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, point 6: no private key leaves its Secret. A realistic {@code local} run with the executor on (an MPI
 * TrainJob that completes, through {@code mpirun} where it is installed, one whose launcher fails, TrainJobs the
 * webhooks reject), then every log and answer it produced is grepped for the key material of every Secret of the
 * cluster (the MPI SSH keys, the webhook's serving and CA keys) and for private-key markers
 * ({@link KeyMaterialScanner}): {@code local}'s output (at INFO), the pods' log files, every list of every kind but
 * Secrets (all namespaces, as JSON and as kubectl's tables), watches, pod logs, Events, TrainJob status, error
 * answers, the admission denials, {@code /debug/stats}, {@code /openapi}, health and version endpoints, {@code render}
 * output and errors, and {@code kubectl} output where kubectl is installed. The Secrets' own GET and LIST are the
 * only answers not scanned.
 */
class SecretsStaySecretTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TRAINING = Duration.ofSeconds(180);
  private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
  private static final List<String> WATCHED = List.of("/api/v1/configmaps", "/api/v1/events", "/api/v1/pods",
      "/apis/trainer.kubeflow.org/v1alpha1/trainjobs", "/apis/jobset.x-k8s.io/v1alpha2/jobsets");

  private final KeyMaterialScanner scanner = new KeyMaterialScanner();

  @Test
  void noPrivateKeyInAnyLogOrAnswerButItsSecret() throws Exception {
    Path runDir = emptyDirectory(Locations.workDir().resolve("secrets-run"));
    LocalOperator local = LocalOperator.startExecuting("secrets",
        List.of("--run-dir", runDir.toString(), "--max-pods", "8", "-v"));
    try (local) {
      KubernetesClient client = local.client();
      String namespace = local.createNamespace("secrets");
      TrainJobs trainJobs = new TrainJobs(client, namespace);
      trainJobs.create(Manifests.resource("manifests/secrets-mpi-runtime.yaml"));
      trainJobs.create(mpiTrainJob("completes", mpirunInstalled()
          ? List.of("mpirun", "-np", "2", "hostname") : List.of("sh", "-c", "echo no mpirun here")));
      trainJobs.create(mpiTrainJob("fails", List.of("sh", "-c", "echo the launcher fails >&2; exit 3")));
      awaitCondition(client, namespace, "completes", "Complete");
      awaitCondition(client, namespace, "fails", "Failed");

      KeyMaterialScanner control = new KeyMaterialScanner();
      List<String> keys = addClusterKeys(client, scanner, control);
      assertThat(keys).as("the SSH keys of both TrainJobs and the webhook's key").hasSizeGreaterThanOrEqualTo(3)
          .anyMatch(key -> key.startsWith(namespace + "/completes-mpi-ssh-auth"))
          .anyMatch(key -> key.startsWith(namespace + "/fails-mpi-ssh-auth"));
      // the control: the Secrets' own LIST, as it comes over the wire, shows every key to the scanner
      control.scan("LIST secrets", get(client, "/api/v1/secrets", "application/json").body());
      assertThat(control.findings()).filteredOn(finding -> !finding.what().startsWith("marker "))
          .extracting(finding -> finding.what().substring(0, finding.what().lastIndexOf(" (")))
          .containsAll(keys);

      scanRejections(client, namespace);
      scanApi(client);
      scanKubectl(local);
      scanOps(local.log());
    }
    scanRender();
    scanLogs(local.log(), runDir);

    System.out.printf("secrets: %d private keys looked for, %d logs and answers scanned, %,d bytes, %d findings%n",
        scanner.keys(), scanner.sources(), scanner.bytes(), scanner.findings().size());
    assertThat(scanner.findings()).as("private key material outside its Secret").isEmpty();
    assertThat(scanner.sources()).as("sources scanned").isGreaterThan(60);
  }

  private static Path emptyDirectory(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
    return Files.createDirectories(dir);
  }

  private static GenericKubernetesResource mpiTrainJob(String name, List<String> command) {
    GenericKubernetesResource trainJob = new GenericKubernetesResource();
    trainJob.setApiVersion("trainer.kubeflow.org/v1alpha1");
    trainJob.setKind("TrainJob");
    trainJob.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
    trainJob.setAdditionalProperty("spec", Map.of(
        "runtimeRef", Map.of("kind", "TrainingRuntime", "name", "mpi-local"),
        "trainer", Map.of("command", command)));
    return trainJob;
  }

  private static boolean mpirunInstalled() {
    return Files.isExecutable(Path.of("/usr/bin/mpirun"));
  }

  private static void awaitCondition(KubernetesClient client, String namespace, String name, String type) {
    await(name + " " + type).atMost(TRAINING).pollInterval(Duration.ofMillis(500)).until(() -> {
      GenericKubernetesResource trainJob = client.genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
          "TrainJob").inNamespace(namespace).withName(name).get();
      JsonNode conditions = JSON.valueToTree(trainJob).path("status").path("conditions");
      for (JsonNode condition : conditions) {
        if (type.equals(condition.path("type").asText()) && "True".equals(condition.path("status").asText())) {
          return true;
        }
      }
      return false;
    });
  }

  /** Every private key the cluster's Secrets hold (their own LIST, the one answer allowed to show them). */
  private static List<String> addClusterKeys(KubernetesClient client, KeyMaterialScanner... scanners) {
    List<String> keys = new ArrayList<>();
    for (Secret secret : client.secrets().inAnyNamespace().list().getItems()) {
      Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
      data.forEach((key, value) -> {
        String decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.US_ASCII);
        if (decoded.contains("PRIVATE KEY") || decoded.contains("openssh-key-v1")) {
          String name = secret.getMetadata().getNamespace() + "/" + secret.getMetadata().getName() + " " + key;
          for (KeyMaterialScanner scanner : scanners) {
            scanner.addKey(name, decoded);
          }
          keys.add(name);
        }
      });
    }
    return keys;
  }

  /** Admission denials and schema errors, as the API server answers them. */
  private void scanRejections(KubernetesClient client, String namespace) throws Exception {
    String trainJobs = "/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + namespace + "/trainjobs";
    Map<String, String> rejected = Map.of(
        "reserved env", "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":"
            + "{\"name\":\"reserved\"},\"spec\":{\"runtimeRef\":{\"name\":\"torch-distributed\"},\"trainer\":"
            + "{\"env\":[{\"name\":\"PET_NNODES\",\"value\":\"3\"}]}}}",
        "missing runtime", "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":"
            + "{\"name\":\"orphan\"},\"spec\":{\"runtimeRef\":{\"name\":\"nope\"}}}",
        "wrong type", "{\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"kind\":\"TrainJob\",\"metadata\":"
            + "{\"name\":\"typed\"},\"spec\":{\"runtimeRef\":{\"name\":\"mpi-local\",\"kind\":\"TrainingRuntime\"},"
            + "\"trainer\":{\"numNodes\":\"two\"}}}",
        "not JSON", "{\"apiVersion\":");
    for (Map.Entry<String, String> input : rejected.entrySet()) {
      HttpResponse<String> answer = send(client, client.getHttpClient().newHttpRequestBuilder()
          .uri(uri(client, trainJobs)).post("application/json", input.getValue()));
      assertThat(answer.code()).as(input.getKey()).isBetween(400, 499);
      scanner.scan("POST " + input.getKey(), answer.body());
    }
  }

  /** Every list but Secrets, in every namespace, as JSON and as tables; watches, pod logs, endpoints, errors. */
  private void scanApi(KubernetesClient client) throws Exception {
    List<String> lists = new ArrayList<>();
    for (String groupVersion : groupVersions(client)) {
      JsonNode resources = JSON.readTree(get(client, groupVersion, "application/json").body()).path("resources");
      for (JsonNode resource : resources) {
        String name = resource.path("name").asText();
        boolean listable = false;
        for (JsonNode verb : resource.path("verbs")) {
          listable |= verb.asText().equals("list");
        }
        if (listable && !name.contains("/") && !name.equals("secrets")) {
          lists.add(groupVersion + "/" + name);
        }
      }
    }
    assertThat(lists).contains("/api/v1/events", "/apis/trainer.kubeflow.org/v1alpha1/trainjobs",
        "/api/v1/configmaps");
    for (String list : lists) {
      scanner.scan("LIST " + list, get(client, list, "application/json").body());
      scanner.scan("LIST " + list + " as Table", get(client, list, TABLE).body());
    }
    for (String watched : WATCHED) {
      scanner.scan("WATCH " + watched, get(client, watched + "?watch=true&timeoutSeconds=1", "application/json")
          .body());
    }
    JsonNode pods = JSON.readTree(get(client, "/api/v1/pods", "application/json").body()).path("items");
    for (JsonNode pod : pods) {
      String path = "/api/v1/namespaces/" + pod.at("/metadata/namespace").asText() + "/pods/"
          + pod.at("/metadata/name").asText() + "/log";
      scanner.scan("GET " + path, get(client, path, "text/plain").body());
    }
    for (String path : List.of("/version", "/healthz", "/readyz?verbose", "/livez", "/debug/stats", "/openapi/v2",
        "/openapi/v3", "/api", "/apis", "/api/v1/namespaces/kube-system/secrets/no-such-secret",
        "/apis/no.such.group/v1/things", "/api/v1/namespaces/default/pods/no-such-pod/log")) {
      scanner.scan("GET " + path, get(client, path, "application/json").body());
    }
  }

  /** The operator's metrics and health servers, on the ports {@code local} logs at INFO. */
  private void scanOps(Path localLog) throws Exception {
    String log = Files.readString(localLog);
    Matcher metricsPort = Pattern.compile("/metrics on port (\\d+)").matcher(log);
    Matcher healthPort = Pattern.compile("/readyz on port (\\d+)").matcher(log);
    assertThat(metricsPort.find()).as("the metrics server's port in " + localLog).isTrue();
    assertThat(healthPort.find()).as("the health server's port in " + localLog).isTrue();
    java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
    for (String path : List.of("/metrics", "/readyz", "/healthz")) {
      String port = "/metrics".equals(path) ? metricsPort.group(1) : healthPort.group(1);
      java.net.http.HttpResponse<String> answer = http.send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(path).isEqualTo(200);
      scanner.scan("ops " + path, answer.body());
    }
  }

  private static List<String> groupVersions(KubernetesClient client) throws Exception {
    List<String> groupVersions = new ArrayList<>();
    for (JsonNode version : JSON.readTree(get(client, "/api", "application/json").body()).path("versions")) {
      groupVersions.add("/api/" + version.asText());
    }
    for (JsonNode group : JSON.readTree(get(client, "/apis", "application/json").body()).path("groups")) {
      for (JsonNode version : group.path("versions")) {
        groupVersions.add("/apis/" + version.path("groupVersion").asText());
      }
    }
    return groupVersions;
  }

  private void scanKubectl(LocalOperator local) {
    if (!Kubectl.isInstalled()) {
      System.out.println("secrets: kubectl is not installed, its output not scanned");
      return;
    }
    Kubectl kubectl = local.kubectl();
    for (List<String> args : List.of(List.of("get", "events", "-A", "-o", "yaml"),
        List.of("get", "trainjobs", "-A", "-o", "yaml"), List.of("describe", "trainjobs", "-A"),
        List.of("describe", "secrets", "-A"), List.of("get", "all", "-A", "-o", "wide"),
        List.of("get", "secrets", "-A"))) {
      scan("kubectl " + String.join(" ", args), kubectl.run(args.toArray(String[]::new)));
    }
  }

  private void scanRender() {
    Path examples = Locations.examplesDir();
    Path mpi = examples.resolve("deepspeed-trainjob.yaml").toAbsolutePath();
    Command.Result yaml = OperatorJar.command("render", "-f", mpi.toString()).run();
    assertThat(yaml.exitCode()).as(yaml.describe()).isZero();
    assertThat(yaml.stdout()).contains("kind: Secret");
    scan("render (yaml)", yaml);
    scan("render (json)", OperatorJar.command("render", "-f", mpi.toString(), "-o", "json").run());
    Command.Result rejected = OperatorJar.command("render", "-f", "-").stdin("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: bad}
        spec:
          runtimeRef: {name: deepspeed-distributed}
          trainer: {numNodes: 2, env: [{name: OMPI_MCA_orte_default_hostfile, value: /x}], numProcPerNode: many}
        """).run();
    assertThat(rejected.exitCode()).as(rejected.describe()).isEqualTo(1);
    scan("render (rejected)", rejected);
  }

  /** {@code local}'s own output, and the log files of the pods it ran (not the Secret volumes it projected). */
  private void scanLogs(Path localLog, Path runDir) throws IOException {
    scanner.scan("local's output", Files.readString(localLog));
    try (Stream<Path> files = Files.walk(runDir)) {
      List<Path> logs = files.filter(Files::isRegularFile)
          .filter(file -> file.toString().contains("/logs/") || file.toString().endsWith(".log")).toList();
      assertThat(logs).as("pod logs under " + runDir).isNotEmpty();
      for (Path log : logs) {
        scanner.scan(runDir.relativize(log).toString(), readLossy(log));
      }
    }
  }

  private void scan(String source, Command.Result result) {
    scanner.scan(source + " stdout", result.stdout());
    scanner.scan(source + " stderr", result.stderr());
  }

  private static String readLossy(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static HttpResponse<String> get(KubernetesClient client, String path, String accept) throws Exception {
    return send(client, client.getHttpClient().newHttpRequestBuilder()
        .uri(uri(client, path)).header("Accept", accept));
  }

  private static java.net.URI uri(KubernetesClient client, String path) throws Exception {
    return client.getMasterUrl().toURI().resolve(path);
  }

  private static HttpResponse<String> send(KubernetesClient client, HttpRequest.Builder request) throws Exception {
    HttpClient http = client.getHttpClient();
    return http.sendAsync(request.build(), String.class).get(60, TimeUnit.SECONDS);
  }
}
