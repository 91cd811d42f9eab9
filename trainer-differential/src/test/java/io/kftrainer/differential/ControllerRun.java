package io.kftrainer.differential;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kftrainer.lab.Lab;
import io.kftrainer.lab.LabBinaries;
import io.kftrainer.lab.LabProcess;
import io.kftrainer.lab.UpstreamTrainer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One controller's run of every case, on a lab of its own (the CRDs and webhook configurations are cluster-wide):
 * the scheduler-plugins and Volcano PodGroup CRDs, the controller with its CRDs and webhooks, upstream's runtimes
 * (manifests/base/runtimes) through the controller's webhooks, then the cases, {@value #PARALLEL} at a time, each in a
 * namespace of its own.
 */
final class ControllerRun {

  enum Controller {
    UPSTREAM("upstream"), OURS("ours");

    final String label;

    Controller(String label) {
      this.label = label;
    }
  }

  static final int PARALLEL = 4;
  /** How long an ended case's children must stay the same before they are compared. */
  private static final Duration SETTLED = Duration.ofSeconds(2);
  static final int NODES = 4;
  private static final ObjectMapper JSON = Serialization.jsonMapper();
  private static final List<String[]> CHILD_KINDS = List.of(
      new String[] {"jobset.x-k8s.io/v1alpha2", "JobSet"}, new String[] {"v1", "ConfigMap"},
      new String[] {"v1", "Secret"}, new String[] {"scheduling.x-k8s.io/v1alpha1", "PodGroup"},
      new String[] {"scheduling.volcano.sh/v1beta1", "PodGroup"});

  private ControllerRun() {
  }

  /** Runs {@code cases} with {@code controller}; returns each case's outcome by name. */
  static Map<String, Outcome> run(Controller controller, LabBinaries binaries, Path work, List<TrainerCase> cases)
      throws Exception {
    try (Lab lab = Lab.start(binaries, work, NODES)) {
      for (Path crd : List.of(
          LabBinaries.projectDir().resolve("trainer-plugins-coscheduling/src/main/resources/META-INF/trainer/crds/"
              + "scheduling.x-k8s.io_podgroups.yaml"),
          LabBinaries.projectDir().resolve("trainer-plugins-volcano/src/main/resources/META-INF/trainer/crds/"
              + "scheduling.volcano.sh_podgroups.yaml"))) {
        try (InputStream in = Files.newInputStream(crd)) {
          lab.admin().load(in).serverSideApply();
        }
      }
      lab.awaitServed("scheduling.x-k8s.io/v1alpha1", "PodGroup", Duration.ofSeconds(30));
      lab.awaitServed("scheduling.volcano.sh/v1beta1", "PodGroup", Duration.ofSeconds(30));
      AutoCloseable running;
      LabProcess process;
      if (controller == Controller.UPSTREAM) {
        UpstreamTrainer upstream = UpstreamTrainer.start(lab, binaries, work.resolve("trainer-controller-manager"));
        running = upstream;
        process = upstream.process();
      } else {
        OurOperator ours = OurOperator.start(lab, work.resolve("trainer"));
        running = ours;
        process = ours.process();
      }
      try (running) {
        UpstreamTrainer.installRuntimes(lab, binaries, process);
        Admission admission = new Admission(lab);
        Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
          List<Future<?>> futures = new ArrayList<>();
          for (TrainerCase c : cases) {
            futures.add(pool.submit(() -> {
              outcomes.put(c.name(), runCase(lab, admission, c));
              return null;
            }));
          }
          for (Future<?> future : futures) {
            future.get();
          }
        } finally {
          pool.shutdownNow();
        }
        return outcomes;
      }
    }
  }

  private static Outcome runCase(Lab lab, Admission admission, TrainerCase c) throws Exception {
    KubernetesClient admin = lab.admin();
    String namespace = c.namespace();
    createNamespace(lab, namespace);
    try (ConditionHistory history = c.trainJob() == null ? null : ConditionHistory.watch(admin, namespace,
        c.trainJob())) {
      return runCase(lab, admission, c, history);
    }
  }

  private static Outcome runCase(Lab lab, Admission admission, TrainerCase c, ConditionHistory history)
      throws Exception {
    KubernetesClient admin = lab.admin();
    String namespace = c.namespace();
    List<String> admissions = new ArrayList<>();
    boolean admitted = false;
    for (String document : c.yaml().split("(?m)^---\\s*$")) {
      if (document.lines().noneMatch(line -> line.startsWith("kind:"))) {
        continue;
      }
      GenericKubernetesResource object = Serialization.unmarshal(document, GenericKubernetesResource.class);
      String answer = admission.create(object, namespace);
      admissions.add(answer);
      if (object.getKind().equals("TrainJob") && answer.contains(": 201")) {
        admitted = true;
      }
    }
    List<String> conditions = List.of();
    String failure = null;
    JsonNode status = null;
    if (admitted && c.trainJob() != null) {
      try {
        for (TrainerCase.Step step : c.steps()) {
          // a suspension is awaited on the JobSet too: resumed before the JobSet controller saw it suspended, the
          // JobSet would never get its Suspended condition, by chance on one side and not on the other
          await(c, history, trainJob -> hasCondition(trainJob, step.awaitCondition())
              && (!step.awaitCondition().equals("Suspended") || hasCondition(admin.genericKubernetesResources(
                  "jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(namespace).withName(c.trainJob()).get(),
                  "Suspended")));
          admin.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "TrainJob").inNamespace(namespace)
              .withName(c.trainJob()).patch(PatchContext.of(PatchType.JSON_MERGE), step.mergePatch());
        }
        if (c.terminal()) {
          await(c, history, trainJob -> hasCondition(trainJob, "Complete")
              || hasCondition(trainJob, "Failed"));
        } else {
          await(c, history, trainJob -> admin.genericKubernetesResources(
              "jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(namespace).withName(c.trainJob()).get() != null);
        }
      } catch (ConditionTimeoutException e) {
        failure = "no end within " + c.timeout().toSeconds() + " s";
      }
      ConditionHistory.Seen seen = history.seen();
      GenericKubernetesResource trainJob = seen.trainJob();
      conditions = seen.conditions();
      JsonNode full = trainJob == null ? null : JSON.valueToTree(trainJob).get("status");
      status = Normalize.status(full);
      if (c.podsWait()) {
        // jobsStatus of pods that wait for a scheduler moves with the moment it is read, and may not be written yet
        status = JSON.createObjectNode().set("conditions", status != null && status.has("conditions")
            ? status.get("conditions") : JSON.createArrayNode());
      }
    }
    if (admitted && c.terminal()) {
      // the children once they have settled: upstream's controller can apply a deleted JobSet again for a moment
      // (a reconcile that read the TrainJob before its own Failed status, as deadline/active-deadline-seconds
      // showed), ours deletes one that reappears; either is seen, or not, by the moment the end is
      AtomicReference<Set<String>> seen = new AtomicReference<>(childNames(admin, namespace));
      Awaitility.await(c.name() + ": its children unchanged for " + SETTLED.toSeconds() + " s").during(SETTLED)
          .atMost(SETTLED.plusSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            Set<String> now = childNames(admin, namespace);
            return now.equals(seen.getAndSet(now));
          });
    }
    Map<String, JsonNode> children = new LinkedHashMap<>();
    for (String[] kind : CHILD_KINDS) {
      List<GenericKubernetesResource> items;
      try {
        items = admin.genericKubernetesResources(kind[0], kind[1]).inNamespace(namespace).list().getItems();
      } catch (KubernetesClientException notServed) {
        continue;
      }
      for (GenericKubernetesResource item : items) {
        if (item.getMetadata().getOwnerReferences() != null && item.getMetadata().getOwnerReferences().stream()
            .anyMatch(owner -> owner.getKind().equals("TrainJob"))) {
          JsonNode object = Normalize.object(JSON.valueToTree(item));
          if (c.podsWait() && object instanceof ObjectNode o) {
            o.remove("status");
          }
          children.put(kind[1] + " " + item.getMetadata().getName() + " (" + kind[0] + ")", object);
        }
      }
    }
    untargeted(children, status);
    return new Outcome(admissions, conditions, status, children, failure);
  }

  /** Creates {@code namespace} and waits for its default ServiceAccount, which pods and tokens need. */
  static void createNamespace(Lab lab, String namespace) {
    lab.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
        .build()).create();
    Awaitility.await("the default ServiceAccount of " + namespace).atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> lab.admin().serviceAccounts().inNamespace(namespace).withName("default").get() != null);
  }

  /** The kinds and names of the namespace's objects a TrainJob owns. */
  private static Set<String> childNames(KubernetesClient admin, String namespace) {
    Set<String> names = new HashSet<>();
    for (String[] kind : CHILD_KINDS) {
      try {
        admin.genericKubernetesResources(kind[0], kind[1]).inNamespace(namespace).list().getItems().stream()
            .filter(item -> item.getMetadata().getOwnerReferences() != null && item.getMetadata().getOwnerReferences()
                .stream().anyMatch(owner -> owner.getKind().equals("TrainJob")))
            .forEach(item -> names.add(kind[1] + " " + item.getMetadata().getName()));
      } catch (KubernetesClientException notServed) {
        // a kind this lab does not serve
      }
    }
    return names;
  }

  /**
   * The replicated jobs a JobSet's successPolicy does not target are reduced to their names in the JobSet's and the
   * TrainJob's status: the JobSet completes with its targets, and what the others' pods were doing at that moment
   * (ready, or succeeded already) is chance.
   */
  private static void untargeted(Map<String, JsonNode> children, JsonNode status) {
    for (JsonNode child : children.values()) {
      JsonNode targets = child.at("/spec/successPolicy/targetReplicatedJobs");
      if (!"JobSet".equals(child.path("kind").asText()) || !targets.isArray() || targets.isEmpty()) {
        continue;
      }
      Set<String> targeted = new HashSet<>();
      targets.forEach(t -> targeted.add(t.asText()));
      for (JsonNode list : List.of(child.at("/status/replicatedJobsStatus"),
          status == null ? JSON.missingNode() : status.path("jobsStatus"))) {
        if (list instanceof ArrayNode array) {
          for (int i = 0; i < array.size(); i++) {
            String name = array.get(i).path("name").asText();
            if (!targeted.contains(name)) {
              array.set(i, JSON.createObjectNode().put("name", name));
            }
          }
        }
      }
    }
  }

  private interface TrainJobCondition {
    boolean holds(GenericKubernetesResource trainJob) throws Exception;
  }

  /** Waits until the TrainJob as its watch last delivered it is {@code done}. */
  private static void await(TrainerCase c, ConditionHistory history, TrainJobCondition done) {
    Awaitility.await(c.name() + ": " + c.trainJob()).atMost(c.timeout()).pollInterval(Duration.ofMillis(100))
        .until(() -> {
          GenericKubernetesResource trainJob = history.seen().trainJob();
          return trainJob != null && done.holds(trainJob);
        });
  }

  /** The conditions as {@code type=status reason "message"}, in the TrainJob's order. */
  static String conditions(GenericKubernetesResource trainJob) {
    List<Map<String, Object>> list = trainJob.get("status", "conditions");
    if (list == null) {
      return "[]";
    }
    List<String> each = new ArrayList<>();
    for (Map<String, Object> c : list) {
      each.add(c.get("type") + "=" + c.get("status") + " " + c.get("reason") + " \"" + c.get("message") + "\"");
    }
    return each.toString();
  }

  private static boolean hasCondition(GenericKubernetesResource object, String type) {
    if (object == null) {
      return false;
    }
    List<Map<String, Object>> list = object.get("status", "conditions");
    return list != null && list.stream().anyMatch(c -> type.equals(c.get("type")) && "True".equals(c.get("status")));
  }

  /**
   * Creates objects with the lab's admin token over plain HTTP, to read what fabric8 does not return: the
   * {@code Warning} headers of the admission webhooks.
   */
  static final class Admission {
    private final Lab lab;
    private final HttpClient http;
    private final String token;
    private final Map<String, APIResource> resources = new ConcurrentHashMap<>();

    Admission(Lab lab) throws Exception {
      this.lab = lab;
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      store.setCertificateEntry("lab-ca", lab.caCertificate());
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      this.http = HttpClient.newBuilder().sslContext(context).build();
      this.token = Config.fromKubeconfig(Files.readString(lab.adminKubeconfig())).getAutoOAuthToken();
    }

    /** {@code Kind name: code[, message][, warning: ...]} of a create. */
    String create(GenericKubernetesResource object, String namespace) throws Exception {
      APIResource resource = resource(object.getApiVersion(), object.getKind());
      String base = object.getApiVersion().contains("/") ? "/apis/" + object.getApiVersion()
          : "/api/" + object.getApiVersion();
      String path = base + (Boolean.TRUE.equals(resource.getNamespaced()) ? "/namespaces/" + namespace : "")
          + "/" + resource.getName();
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(lab.url() + path))
          .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(Serialization.asJson(object))).build(),
          HttpResponse.BodyHandlers.ofString());
      StringBuilder answer = new StringBuilder(object.getKind() + " " + object.getMetadata().getName() + ": "
          + response.statusCode());
      if (response.statusCode() >= 300) {
        // a message may quote the object, with the time the mutating webhook gave a runtime patch
        answer.append(", ").append(JSON.readTree(response.body()).path("message").asText()
            .replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z", "(time)"));
      }
      response.headers().allValues("Warning").forEach(w -> answer.append(", warning: ").append(w));
      return answer.toString();
    }

    private APIResource resource(String apiVersion, String kind) {
      return resources.computeIfAbsent(apiVersion + " " + kind, key -> lab.admin().getApiResources(apiVersion)
          .getResources().stream().filter(r -> r.getKind().equals(kind) && !r.getName().contains("/"))
          .findFirst().orElseThrow(() -> new IllegalArgumentException("not served: " + key)));
    }
  }
}
