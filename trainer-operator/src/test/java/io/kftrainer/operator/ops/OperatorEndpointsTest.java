package io.kftrainer.operator.ops;

import static io.kftrainer.webhook.cert.WebhookConfigurations.SECRET;
import static io.kftrainer.webhook.cert.WebhookConfigurations.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.app.TrainerOperator;
import io.kftrainer.apiserver.CaBundleTrust;
import io.kftrainer.webhook.cert.WebhookConfigurations;
import io.kftrainer.operator.controller.TestCluster;
import io.kftrainer.webhook.ApiServerWebhooks;
import io.kftrainer.operator.app.WebhookComponent;
import io.kftrainer.operator.metrics.Exposition;
import io.kftrainer.operator.metrics.UpstreamManagerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ops and webhook servers wired into a running operator, as {@code run} wires them, against the embedded API
 * server: readiness, metrics after a reconcile, and the API server calling the webhooks through the configurations
 * the operator published its CA into.
 */
class OperatorEndpointsTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final AtomicReference<OpsServer> OPS = new AtomicReference<>();
  private static final AtomicReference<WebhookComponent> WEBHOOK = new AtomicReference<>();
  private static final AtomicReference<MetricsServer> METRICS = new AtomicReference<>();

  private static TestCluster cluster;
  private static TrainerOperator operator;

  @BeforeAll
  static void startOperator(@TempDir Path pluginsDir) {
    cluster = TestCluster.start();
    WebhookConfigurations.install(cluster.client());
    OperatorConfig config = TestCluster.config(pluginsDir)
        .withPorts(0, 0)
        .withBindAddress(OperatorConfig.LOOPBACK_ADDRESS)
        .withWebhook(new OperatorConfig.Webhook(0, Optional.empty(), SECRET, SERVICE))
        .withLeaderElection(new OperatorConfig.LeaderElection(true, OperatorConfig.DEFAULT_LEASE_NAME));
    operator = cluster.startOperator(config, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), builder -> builder
        .component(context -> keep(OPS, (OpsServer) OpsServer.factory().create(context)))
        .component(context -> keep(WEBHOOK, (WebhookComponent) WebhookComponent.factory().create(context)))
        .component(context -> keep(METRICS, (MetricsServer) MetricsServer.factory(
            () -> WEBHOOK.get().server().certificates().keyManager().serverContext()).create(context))));
    ApiServerWebhooks.register(cluster.server(), WEBHOOK.get().server().port());
  }

  @AfterAll
  static void stopOperator() {
    cluster.close();
  }

  @Test
  void theOperatorTurnsReadyOnceItsCachesSyncedAndItsCertificateIsServed() throws Exception {
    await().atMost(TestCluster.TIMEOUT).untilAsserted(() -> {
      HttpResponse<String> response = get("/readyz");
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("ok\n");
    });
    assertThat(operator.readiness().failing()).isEmpty();
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
  }

  @Test
  void metricsOverHttpsWithTheWebhookCertificateHoldUpstreamsNamesJosdksTheTrainJobGaugeAndJvmMetrics()
      throws Exception {
    createBuilt("metrics", "counted");

    String metrics = await().atMost(TestCluster.TIMEOUT).until(OperatorEndpointsTest::scrape,
        body -> body.contains("result=\"success\""));

    assertThat(metrics).contains("operator_sdk_reconciliations_started_total",
        "trainer_trainjobs{condition=\"Created\"}", "jvm_memory_used_bytes");
    assertThat(metrics)
        .containsPattern(
            "controller_runtime_reconcile_total\\{controller=\"trainjob_controller\",result=\"success\"} [1-9]")
        .contains("# TYPE controller_runtime_reconcile_errors_total counter",
            "controller_runtime_reconcile_time_seconds_bucket{controller=\"trainjob_controller\",le=\"0.005\"}",
            "controller_runtime_active_workers{controller=\"trainjob_controller\"}",
            "controller_runtime_max_concurrent_reconciles{controller=\"trainjob_controller\"}",
            "controller_runtime_reconcile_total{controller=\"trainingruntime_controller\",result=\"success\"}",
            "workqueue_depth{controller=\"trainjob_controller\",name=\"trainjob_controller\",priority=\"0\"}",
            "workqueue_queue_duration_seconds_bucket{controller=\"trainjob_controller\",name=\"trainjob_controller\","
                + "le=\"1.0E-8\"}")
        .containsPattern(
            "workqueue_adds_total\\{controller=\"trainjob_controller\",name=\"trainjob_controller\"} [1-9]")
        .as("upstream's groupKindConcurrency for runtimes").contains(
            "controller_runtime_max_concurrent_reconciles{controller=\"trainingruntime_controller\"} 1.0")
        .containsPattern("rest_client_requests_total\\{code=\"200\",host=\"[^\"]+\",method=\"GET\"} [1-9]")
        .containsPattern("rest_client_requests_total\\{code=\"201\",host=\"[^\"]+\",method=\"POST\"} [1-9]");
  }

  @Test
  void theExpositionServesEveryFamilyUpstreamsManagerServesWithItsLabelNamesAndValues() throws Exception {
    createBuilt("upstream-names", "listed");
    UpstreamManagerMetrics upstream = UpstreamManagerMetrics.read();

    Exposition exposition = Exposition.parse(await().atMost(TestCluster.TIMEOUT).until(OperatorEndpointsTest::scrape,
        body -> body.contains("leader_election_master_status{name=\"trainer.kubeflow.org\"} 1.0")));

    assertServes(exposition, upstream);
  }

  @Test
  void kubeflowTrainerMetricsHaveTheNamesTypesLabelsAndBucketsOfUpstreamsPr3433AndCountTrainJobsLives()
      throws Exception {
    String ns = "lifecycle";
    cluster.createRuntimes(ns);
    for (String name : List.of("done", "broken", "paused")) {
      cluster.createTrainJob(ns, name, tj -> tj.getSpec().setSuspend("paused".equals(name)));
    }
    cluster.awaitJobSet(ns, "done");
    cluster.awaitJobSet(ns, "broken");
    cluster.setJobSetStatus(ns, "done", "StartupPolicyCompleted", "StartupPolicyCompleted", "started",
        Map.of("name", "node", "ready", 1, "succeeded", 0, "failed", 0, "active", 2, "suspended", 0));
    await().atMost(TestCluster.TIMEOUT).until(() -> cluster.trainJob(ns, "done").getStatus().getJobsStatus() != null
        && cluster.trainJob(ns, "done").getStatus().getJobsStatus().get(0).getReady() == 1);
    cluster.setJobSetStatus(ns, "done", "Completed", "AllJobsCompleted", "jobset completed successfully",
        Map.of("name", "node", "ready", 0, "succeeded", 2, "failed", 0, "active", 0, "suspended", 0));
    cluster.setJobSetStatus(ns, "broken", "Failed", "FailedJobs", "jobset failed",
        Map.of("name", "node", "ready", 0, "succeeded", 0, "failed", 1, "active", 0, "suspended", 0));
    cluster.awaitCondition(ns, "done", "Complete", "True");
    cluster.awaitCondition(ns, "broken", "Failed", "True");
    cluster.awaitCondition(ns, "paused", "Suspended", "True");
    cluster.client().resources(TrainJob.class).inNamespace(ns).withName("done").delete();
    UpstreamManagerMetrics pr = UpstreamManagerMetrics.read(UpstreamManagerMetrics.PR_3433);

    // the gauges are counted from the caches every few seconds, and a family without series is not served: the
    // scrape is taken once a count has seen this namespace's TrainJobs, as well as the deletion
    Exposition exposition = Exposition.parse(await().atMost(TestCluster.TIMEOUT).until(
        OperatorEndpointsTest::scrape, body -> body.contains("kubeflow_trainer_trainjobs_deleted_total{namespace=\""
            + ns + "\"") && body.lines().anyMatch(line -> line.startsWith("kubeflow_trainer_trainjobs_active{")
            && line.contains("namespace=\"" + ns + "\""))));

    assertServes(exposition, pr);
    Map<String, String> inNamespace = Map.of("namespace", ns, "runtime", "TrainingRuntime");
    assertThat(exposition.family("kubeflow_trainer_trainjobs_created_total").sum(
        "kubeflow_trainer_trainjobs_created_total", inNamespace)).isEqualTo(3);
    assertThat(exposition.family("kubeflow_trainer_trainjobs_completed_total").sum(
        "kubeflow_trainer_trainjobs_completed_total", inNamespace)).isEqualTo(1);
    assertThat(exposition.family("kubeflow_trainer_trainjobs_failed_total").sum(
        "kubeflow_trainer_trainjobs_failed_total", Map.of("namespace", ns, "reason", "FailedJobs"))).isEqualTo(1);
    assertThat(exposition.family("kubeflow_trainer_trainjobs_suspended_total").sum(
        "kubeflow_trainer_trainjobs_suspended_total", inNamespace)).isEqualTo(1);
    assertThat(exposition.family("kubeflow_trainer_trainjobs_deleted_total").sum(
        "kubeflow_trainer_trainjobs_deleted_total", inNamespace)).isEqualTo(1);
    assertThat(exposition.family("kubeflow_trainer_trainjob_start_duration_seconds").sum(
        "kubeflow_trainer_trainjob_start_duration_seconds_count", inNamespace)).isEqualTo(1);
    assertThat(exposition.family("kubeflow_trainer_trainjob_duration_seconds").sum(
        "kubeflow_trainer_trainjob_duration_seconds_count", Map.of("namespace", ns))).isEqualTo(2);
    assertThat(exposition.family("kubeflow_trainer_plugin_execution_duration_seconds").values("phase"))
        .contains("build", "enforce_ml_policy", "validate", "status");
    await().atMost(TestCluster.TIMEOUT).untilAsserted(() -> {
      Exposition states = Exposition.parse(scrape());
      assertThat(states.family("kubeflow_trainer_trainjobs").sum("kubeflow_trainer_trainjobs",
          Map.of("namespace", ns, "state", "Failed"))).isEqualTo(1);
      assertThat(states.family("kubeflow_trainer_trainjobs").sum("kubeflow_trainer_trainjobs",
          Map.of("namespace", ns, "state", "Suspended"))).isEqualTo(1);
      assertThat(states.family("kubeflow_trainer_trainjobs_active").sum("kubeflow_trainer_trainjobs_active",
          Map.of("namespace", ns))).as("the deleted one is gone").isEqualTo(2);
    });
  }

  /**
   * Prometheus' linter finds no problem in a scrape (names, suffixes, units, help texts), as Debian's promtool
   * judges it; skipped without promtool ({@code .ci/run} installs the prometheus package).
   */
  @Test
  void promtoolFindsNoLintProblemInTheExposition() throws Exception {
    Path promtool = Path.of("/usr/bin/promtool");
    Assumptions.assumeTrue(Files.isExecutable(promtool), "no /usr/bin/promtool: apt-get install prometheus");
    createBuilt("linted", "linted");
    String scraped = await().atMost(TestCluster.TIMEOUT).until(OperatorEndpointsTest::scrape,
        body -> body.contains("kubeflow_trainer_trainjobs_created_total{namespace=\"linted\""));

    Process check = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
    try (var in = check.getOutputStream()) {
      in.write(scraped.getBytes(StandardCharsets.UTF_8));
    }
    String problems = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(problems).isEmpty();
    assertThat(check.exitValue()).isZero();
  }

  /** Every family of {@code upstream} is served with its type, label names, buckets, and the values it lists. */
  private static void assertServes(Exposition exposition, UpstreamManagerMetrics upstream) {
    SoftAssertions softly = new SoftAssertions();
    for (UpstreamManagerMetrics.Metric metric : upstream.metrics().values()) {
      Exposition.Family family = exposition.families().get(metric.name());
      softly.assertThat(family).as(metric.name()).isNotNull();
      if (family != null) {
        softly.assertThat(family.type()).as(metric.name() + "'s type").isEqualTo(metric.type());
        softly.assertThat(family.labelNames()).as(metric.name() + "'s label names").containsExactly(metric.labels());
        if (upstream.buckets().containsKey(metric.name())) {
          softly.assertThat(family.buckets()).as(metric.name() + "'s buckets")
              .isEqualTo(upstream.buckets().get(metric.name()));
        }
      }
    }
    for (Map.Entry<String, List<String>> label : upstream.values().entrySet()) {
      Set<String> served = exposition.families().values().stream()
          .filter(family -> upstream.metrics().containsKey(family.name()))
          .flatMap(family -> family.values(label.getKey()).stream()).collect(Collectors.toSet());
      softly.assertThat(served).as("values of " + label.getKey())
          .containsAll(upstream.servedValues(label.getKey()));
    }
    softly.assertAll();
  }

  /** The runtimes in {@code namespace} and a TrainJob of them, once its JobSet exists. */
  private static void createBuilt(String namespace, String name) {
    cluster.createRuntimes(namespace);
    cluster.createTrainJob(namespace, name, tj -> {
    });
    cluster.awaitJobSet(namespace, name);
  }

  private static String scrape() throws Exception {
    String caBundle = Base64.getEncoder().encodeToString(WebhookConfigurations.caBundles(cluster.client()).get(0)
        .getBytes(StandardCharsets.US_ASCII));
    HttpClient https = HttpClient.newBuilder().sslContext(CaBundleTrust.sslContext(caBundle,
        WebhookConfigurations.SERVICE_HOST)).build();
    return https.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + METRICS.get().port() + "/metrics"))
        .build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  @Test
  void theApiServerDeniesATrainJobWhoseRuntimeIsNotInTheOperatorsCaches() {
    String ns = "denied";
    cluster.createRuntimes(ns);
    await().atMost(TestCluster.TIMEOUT).until(() -> operator.cache()
        .get(TrainingRuntime.class, ns, "torch").isPresent());

    assertThatThrownBy(() -> cluster.createTrainJob(ns, "lost", tj -> tj.getSpec().getRuntimeRef().setName("gone")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
          assertThat(e.getStatus().getMessage()).isEqualTo("admission webhook "
              + "\"validator.trainjob.trainer.kubeflow.org\" denied the request: TrainJob.trainer.kubeflow.org "
              + "\"lost\" is invalid: spec.runtimeRef: Not found: \"gone\": specified trainingRuntime must be "
              + "created before the TrainJob is created");
        });
    TrainJob created = cluster.createTrainJob(ns, "found", tj -> {
    });
    assertThat(created.getMetadata().getUid()).isNotNull();
  }

  @Test
  void theApiServerStoresTheTimesTheDefaulterStamps() {
    String ns = "defaulted";
    cluster.createRuntimes(ns);
    await().atMost(TestCluster.TIMEOUT).until(() -> operator.cache()
        .get(TrainingRuntime.class, ns, "torch").isPresent());

    TrainJob created = cluster.createTrainJob(ns, "patched", tj -> tj.getSpec().setRuntimePatches(
        List.of(new RuntimePatch().withManager("example.com/tool"))));

    assertThat(created.getSpec().getRuntimePatches()).singleElement()
        .satisfies(patch -> assertThat(patch.getTime()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
  }

  private static <T> T keep(AtomicReference<T> holder, T component) {
    holder.set(component);
    return component;
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + OPS.get().healthPort() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
