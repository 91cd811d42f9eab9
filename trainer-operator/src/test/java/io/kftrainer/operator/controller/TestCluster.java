package io.kftrainer.operator.controller;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.apiserver.AdmissionHook;
import io.kftrainer.apiserver.AdmissionResponse;
import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.operator.app.KubernetesClients;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.testkit.Fixtures;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * An embedded API server with the CRDs the operator needs, and operators running against it in process: the test
 * bed of the controller and wiring tests.
 *
 * <p>Installed CRDs: this project's (trainer-api's generated {@code META-INF/fabric8/*-v1.yml}, JobSet included)
 * and those the plugin jars ship under {@code META-INF/trainer/crds/} (PodGroups). The server answers
 * {@code SelfSubjectRulesReview}s with "everything allowed", as JOSDK asks one before leader election; it has no
 * authorization to ask otherwise.
 *
 * <p>Nothing stands in for the JobSet controller: tests set JobSet status by hand ({@link #setJobSetStatus}).
 */
public final class TestCluster implements AutoCloseable {

  public static final String OPERATOR_NAMESPACE = "kubeflow-system";
  // a deadline, not a wait: generous so that a loaded CI machine does not fail a test that would pass
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final EmbeddedApiServer server;
  private final List<TrainerOperator> operators = Collections.synchronizedList(new ArrayList<>());
  private final List<KubernetesClient> clients = Collections.synchronizedList(new ArrayList<>());

  private TestCluster(EmbeddedApiServer server) {
    this.server = server;
  }

  public static TestCluster start() {
    TestCluster cluster = new TestCluster(EmbeddedApiServer.start());
    cluster.server.addAdmissionHook(AdmissionHook.mutating("authorization.k8s.io", "SelfSubjectRulesReview",
        request -> AdmissionResponse.mutate(allowEverything(request.object()))));
    cluster.installCrds();
    return cluster;
  }

  /** Installs (again) every CRD of the class path, e.g. after a test deleted one. */
  public void installCrds() {
    installCrds("META-INF/fabric8", name -> name.endsWith("-v1.yml"));
    installCrds("META-INF/trainer/crds", name -> name.endsWith(".yaml") || name.endsWith(".yml"));
  }

  public EmbeddedApiServer server() {
    return server;
  }

  public KubernetesClient client() {
    return server.client();
  }

  /** The operator configuration of tests: no leader election, no plugin directory, short durations. */
  public static OperatorConfig config(Path pluginsDir) {
    return OperatorConfig.defaults()
        .withPluginsDir(pluginsDir)
        .withOperatorNamespace(OPERATOR_NAMESPACE)
        .withLeaderElection(new OperatorConfig.LeaderElection(false, OperatorConfig.DEFAULT_LEASE_NAME))
        .withTimings(new OperatorConfig.Timings(Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(200),
            Duration.ofHours(10), Duration.ofMillis(200), Duration.ofSeconds(2)));
  }

  /** Builds and starts an operator with its own client; stopped with the cluster. */
  public TrainerOperator startOperator(OperatorConfig config) {
    return startOperator(config, builder -> {
    });
  }

  public TrainerOperator startOperator(OperatorConfig config, Consumer<TrainerOperator.Builder> options) {
    return startOperator(config, new SimpleMeterRegistry(), options);
  }

  /** As above, with metrics in {@code registry}, the client's requests counted too (as {@code run} wires them). */
  public TrainerOperator startOperator(OperatorConfig config, MeterRegistry registry,
      Consumer<TrainerOperator.Builder> options) {
    KubernetesClient client = KubernetesClients.create(server.config(), config, registry);
    clients.add(client);
    TrainerOperator.Builder builder = TrainerOperator.builder(config, client).meterRegistry(registry);
    options.accept(builder);
    TrainerOperator operator = builder.build();
    operators.add(operator);
    operator.start();
    return operator;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // fixtures

  /** The test runtimes ({@code controller/runtimes.yaml}) in {@code namespace}. */
  public void createRuntimes(String namespace) {
    for (HasMetadata object : Fixtures.objects(Fixtures.resource("controller/runtimes.yaml"))) {
      object.getMetadata().setNamespace(namespace);
      client().resource(object).create();
    }
  }

  /** The test TrainJob ({@code controller/trainjob.yaml}) as {@code namespace/name}, changed by {@code edit}. */
  public TrainJob createTrainJob(String namespace, String name, Consumer<TrainJob> edit) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("controller/trainjob.yaml"));
    trainJob.getMetadata().setNamespace(namespace);
    trainJob.getMetadata().setName(name);
    edit.accept(trainJob);
    return client().resource(trainJob).create();
  }

  public TrainJob trainJob(String namespace, String name) {
    return client().resources(TrainJob.class).inNamespace(namespace).withName(name).get();
  }

  public Optional<JobSet> jobSet(String namespace, String name) {
    return Optional.ofNullable(client().resources(JobSet.class).inNamespace(namespace).withName(name).get());
  }

  public TrainingRuntime runtime(String namespace, String name) {
    return client().resources(TrainingRuntime.class).inNamespace(namespace).withName(name).get();
  }

  /** The stand-in for the JobSet controller: gives the JobSet a status condition {@code type=True}. */
  public void setJobSetStatus(String namespace, String name, String type, String reason, String message,
      Map<String, Object> replicatedJobStatus) {
    GenericKubernetesResource jobSet = client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
        .inNamespace(namespace).withName(name).get();
    Map<String, Object> condition = Map.of("type", type, "status", "True", "reason", reason, "message", message,
        "lastTransitionTime", "2026-01-01T00:00:00Z");
    jobSet.setAdditionalProperty("status", Map.of("conditions", List.of(condition),
        "replicatedJobsStatus", List.of(replicatedJobStatus)));
    client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(namespace)
        .resource(jobSet).updateStatus();
  }

  /** The TrainJob's JobSet, once the operator has applied it (its children exist). */
  public JobSet awaitJobSet(String namespace, String name) {
    return await().atMost(TIMEOUT).until(() -> jobSet(namespace, name), Optional::isPresent).orElseThrow();
  }

  /** The TrainJob's condition, once the operator has set it. */
  public Condition awaitCondition(String namespace, String name, String type, String status) {
    return await().atMost(TIMEOUT).until(() -> condition(namespace, name, type)
            .filter(c -> status.equals(c.getStatus())), Optional::isPresent)
        .orElseThrow();
  }

  public Optional<Condition> condition(String namespace, String name, String type) {
    TrainJob trainJob = trainJob(namespace, name);
    return trainJob == null || trainJob.getStatus() == null ? Optional.empty()
        : Conditions.find(trainJob.getStatus().getConditions(), type);
  }

  /** The Events about the TrainJob {@code namespace/name}. */
  public List<Event> events(String namespace, String name) {
    return client().v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .toList();
  }

  /** The writes (POST, PUT, PATCH, DELETE) recorded under {@code /namespaces/<namespace>/}. */
  public List<ApiRequest> writesIn(String namespace) {
    return server.writes().stream().filter(r -> r.path().contains("/namespaces/" + namespace + "/")).toList();
  }

  /** How many reconciles JOSDK started, from the operator's metrics. */
  public static double reconcilesStarted(MeterRegistry registry) {
    return count(registry, "operator.sdk.reconciliations.started");
  }

  /** How many reconciles ended without an exception. */
  public static double reconcilesSucceeded(MeterRegistry registry) {
    return count(registry, "operator.sdk.reconciliations.success");
  }

  /** How many reconciles failed (and were retried). */
  public static double reconcilesFailed(MeterRegistry registry) {
    return count(registry, "operator.sdk.reconciliations.failed");
  }

  private static double count(MeterRegistry registry, String counter) {
    return registry.find(counter).counters().stream().mapToDouble(Counter::count).sum();
  }

  /** Stops every operator started so far, and closes their clients. */
  public void stopOperators() {
    synchronized (operators) {
      for (TrainerOperator operator : operators) {
        operator.stop();
        try {
          operator.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      operators.clear();
    }
    synchronized (clients) {
      clients.forEach(KubernetesClient::close);
      clients.clear();
    }
  }

  @Override
  public void close() {
    stopOperators();
    server.close();
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static GenericKubernetesResource allowEverything(GenericKubernetesResource review) {
    // a review is not stored by a real API server and has no name; the mock stores it, and needs one
    review.getMetadata().setName("review-" + UUID.randomUUID());
    review.setAdditionalProperty("status", Map.of(
        "resourceRules", List.of(Map.of("verbs", List.of("*"), "apiGroups", List.of("*"),
            "resources", List.of("*"))),
        "nonResourceRules", List.of(),
        "incomplete", false));
    return review;
  }

  private void installCrds(String directory, java.util.function.Predicate<String> fileName) {
    for (URL file : classPathFiles(directory)) {
      String path = file.getPath();
      if (fileName.test(path.substring(path.lastIndexOf('/') + 1))) {
        try (InputStream in = file.openStream()) {
          server.installCrds(in);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }

  /** The files directly in a class-path directory, over every jar and directory of the class path. */
  private static List<URL> classPathFiles(String directory) {
    List<URL> files = new ArrayList<>();
    try {
      for (URL root : Collections.list(TestCluster.class.getClassLoader().getResources(directory))) {
        if ("jar".equals(root.getProtocol())) {
          JarURLConnection connection = (JarURLConnection) root.openConnection();
          connection.setUseCaches(false);
          try (var jar = connection.getJarFile()) {
            for (var entry : Collections.list(jar.entries())) {
              String name = entry.getName();
              if (!entry.isDirectory() && name.startsWith(directory + "/")
                  && name.indexOf('/', directory.length() + 1) < 0) {
                files.add(new URL("jar:" + connection.getJarFileURL() + "!/" + name));
              }
            }
          }
        } else {
          try (Stream<Path> stream = Files.list(Path.of(root.toURI()))) {
            for (Path path : stream.filter(Files::isRegularFile).sorted().toList()) {
              files.add(path.toUri().toURL());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return files;
  }
}
