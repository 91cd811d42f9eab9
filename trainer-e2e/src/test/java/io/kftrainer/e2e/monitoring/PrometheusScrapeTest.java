package io.kftrainer.e2e.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.e2e.support.GrafanaDashboard;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.Prometheus;
import io.kftrainer.e2e.support.StandInJobSetController;
import io.kftrainer.e2e.support.TrainJobs;
import io.kftrainer.lab.LabPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real Prometheus (Debian's) scraping {@code local}'s operator as a cluster's Prometheus scrapes it through the
 * ServiceMonitor: HTTPS with the operator's CA (the webhook Secret's {@code ca.crt}) and the bearer token of a
 * ServiceAccount bound to {@code kubeflow-trainer-metrics-reader}, after a burst of TrainJobs that run, complete,
 * fail, suspend and restart (the JobSet controller played by the test). Then every query of the Grafana dashboard
 * returns series, every alert rule loads and evaluates, and every metric an alert reads has series; and every panel of
 * the dashboard, drawn from the scrape as docs/monitoring.md shows it, has something to draw. Skipped without
 * {@code /usr/bin/prometheus} (the drawing without {@code /usr/bin/chromium}; {@code .ci/run} installs both).
 */
class PrometheusScrapeTest {

  private static final Path MONITORING = Locations.examplesDir().getParent().resolve("manifests/overlays/monitoring");
  private static final Path DASHBOARD = MONITORING.resolve("kubeflow-trainer-dashboard.json");
  private static final String SERVER_NAME = "kubeflow-trainer-controller-manager.kubeflow-system.svc";
  private static final Duration SCRAPED = Duration.ofSeconds(90);
  private static final int BURST = 24;
  /** Pixels: a plot lower than this (its legend too long for the panel) shows nothing one can read. */
  private static final int MIN_PLOT_HEIGHT = 80;
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
      .withZone(ZoneOffset.UTC);
  /** The names of the operator's metrics in a PromQL expression. */
  private static final Pattern METRIC = Pattern.compile(
      "\\b(kubeflow_trainer|controller_runtime|workqueue|rest_client|leader_election|process)_[a-z_]+\\b");

  private static LocalOperator local;
  private static Prometheus prometheus;
  private static Instant scrapeStarted;

  @BeforeAll
  static void scrapeLocalAfterABurstOfTrainJobs() throws IOException, InterruptedException {
    Prometheus.assumeInstalled();
    int metricsPort = LabPorts.free();
    local = LocalOperator.start("prometheus-scrape", List.of("--metrics-port", Integer.toString(metricsPort),
        "--metrics-auth"));
    KubernetesClient client = local.client();
    scrapeStarted = Instant.now();
    prometheus = Prometheus.scraping(Locations.workDir().resolve("prometheus-scrape/prometheus"),
        "127.0.0.1:" + metricsPort, SERVER_NAME, scraperToken(client), operatorCa(client),
        MONITORING.resolve("prometheus-rules.yaml"));
    // the burst in the scraped data, drawn by the dashboard's test
    await("the first scrape").atMost(SCRAPED)
        .until(() -> prometheus.query("up{job=\"" + Prometheus.JOB + "\"}"), up -> !up.isEmpty());
    burst(client);
  }

  /** The token of a ServiceAccount bound to the monitoring overlay's ClusterRole, allowed get on /metrics. */
  private static String scraperToken(KubernetesClient client) throws IOException {
    String namespace = local.createNamespace("monitoring");
    client.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("prometheus").endMetadata().build()).create();
    for (HasMetadata role : client.load(Files.newInputStream(MONITORING.resolve("metrics-reader-role.yaml"))).items()) {
      client.resource(role).create();
    }
    client.resource(new ClusterRoleBindingBuilder().withNewMetadata().withName("prometheus-metrics").endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "kubeflow-trainer-metrics-reader")
        .addNewSubject().withKind("ServiceAccount").withName("prometheus").withNamespace(namespace).endSubject()
        .build()).create();
    TokenRequest token = client.serviceAccounts().inNamespace(namespace).withName("prometheus").tokenRequest(
        new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build());
    return token.getStatus().getToken();
  }

  /** The CA the operator keeps in its webhook Secret. */
  private static byte[] operatorCa(KubernetesClient client) {
    Secret certificate = await("the operator's CA").atMost(SCRAPED).until(() -> client.secrets()
        .inNamespace("kubeflow-system").withName("kubeflow-trainer-webhook-cert").get(),
        secret -> secret != null && secret.getData() != null && secret.getData().containsKey("ca.crt"));
    return Base64.getDecoder().decode(certificate.getData().get("ca.crt"));
  }

  /**
   * TrainJobs of two namespaces: a third run and complete, a third fail, some stay pending, one is suspended, one
   * restarts; and an OptimizationJob's trials.
   */
  private static void burst(KubernetesClient client) {
    StandInJobSetController jobSets = new StandInJobSetController(client);
    List<TrainJobs> namespaces = List.of(new TrainJobs(client, local.createNamespace("team-a")),
        new TrainJobs(client, local.createNamespace("team-b")));
    for (int i = 0; i < BURST; i++) {
      TrainJobs trainJobs = namespaces.get(i % 2);
      trainJobs.create(trainJob(trainJobs.namespace(), "burst-" + i, i == 1));
    }
    for (int i = 0; i < BURST; i++) {
      TrainJobs trainJobs = namespaces.get(i % 2);
      String name = "burst-" + i;
      if (i == 1) {
        continue;
      }
      trainJobs.awaitJobSet(name);
      switch (i % 3) {
        case 0 -> {
          jobSets.run(trainJobs.namespace(), name);
          awaitReady(trainJobs, name);
          jobSets.complete(trainJobs.namespace(), name);
        }
        case 1 -> jobSets.fail(trainJobs.namespace(), name);
        default -> {
          // pending
        }
      }
    }
    TrainJobs first = namespaces.get(0);
    jobSets.run(first.namespace(), "burst-2");
    client.resources(JobSet.class).inNamespace(first.namespace()).withName("burst-2").subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"restarts\":1}}");
    OptimizationJob search = client.getKubernetesSerialization().unmarshal(readExample("hpo-torch.yaml"),
        OptimizationJob.class);
    search.getMetadata().setNamespace(first.namespace());
    client.resource(search).create();
  }

  private static TrainJob trainJob(String namespace, String name, boolean suspended) {
    return local.client().getKubernetesSerialization().unmarshal("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: %s, namespace: %s}
        spec:
          runtimeRef: {name: torch-distributed}
          suspend: %s
          trainer:
            command: ["python3", "-c", "print('trained')"]
        """.formatted(name, namespace, suspended), TrainJob.class);
  }

  private static void awaitReady(TrainJobs trainJobs, String name) {
    await("the TrainJob running").atMost(TrainJobs.REACTION).until(() -> {
      TrainJob trainJob = trainJobs.get(name);
      return trainJob.getStatus() != null && trainJob.getStatus().getJobsStatus() != null
          && trainJob.getStatus().getJobsStatus().stream().anyMatch(job -> job.getReady() != null
          && job.getReady() > 0);
    });
  }

  private static String readExample(String name) {
    try {
      return Files.readString(Locations.examplesDir().resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (prometheus != null) {
      prometheus.close();
    }
    if (local != null) {
      local.close();
    }
  }

  @Test
  void prometheusScrapesTheOperatorOverHttpsWithTheTokenAndTheCa() throws Exception {
    JsonNode up = await("the target scraped").atMost(SCRAPED).until(() -> prometheus.query("up{job=\""
            + Prometheus.JOB + "\"}"),
        result -> result.size() == 1 && "1".equals(result.get(0).path("value").get(1).asText()));

    assertThat(up.get(0).path("metric").path("instance").asText()).startsWith("127.0.0.1:");
    assertThat(prometheus.query("kubeflow_trainer_build_info")).hasSize(1);
  }

  @Test
  void everyQueryOfTheDashboardReturnsSeries() throws IOException {
    List<String> queries = Prometheus.dashboardQueries(DASHBOARD);
    assertThat(queries).hasSizeGreaterThan(20);

    await("every query answered").atMost(SCRAPED).untilAsserted(() -> assertThat(prometheus.withoutSeries(queries))
        .as("queries without series").isEmpty());
  }

  @Test
  void everyAlertLoadsEvaluatesAndReadsMetricsThatHaveSeries() throws IOException {
    JsonNode rules = await("the rules evaluated").atMost(SCRAPED).until(prometheus::rules,
        loaded -> loaded.size() == 6 && Prometheus.allEvaluated(loaded));
    Set<String> metrics = new LinkedHashSet<>();
    for (JsonNode rule : rules) {
      assertThat(rule.path("health").asText()).as(rule.path("name").asText() + ": " + rule.path("lastError"))
          .isEqualTo("ok");
      Matcher names = METRIC.matcher(rule.path("query").asText());
      while (names.find()) {
        metrics.add(names.group());
      }
    }
    assertThat(metrics).hasSizeGreaterThan(6);

    await("every metric scraped").atMost(SCRAPED).untilAsserted(() -> assertThat(prometheus.withoutSeries(metrics))
        .as("metrics without series").isEmpty());
  }

  /**
   * The screenshot of docs/monitoring.md: every panel of the dashboard drawn from the scrape since it started, in
   * {@code target/e2e/monitoring} (with {@code -Dtrainer.updateScreenshots=true}: {@code docs/monitoring}).
   */
  @Test
  void theDashboardDrawsEveryPanelFromTheScrape() throws Exception {
    HeadlessChromium.assumeInstalled();
    GrafanaDashboard dashboard = GrafanaDashboard.read(DASHBOARD);
    AtomicReference<DashboardRange> range = new AtomicReference<>();
    await("every panel drawn").atMost(SCRAPED).untilAsserted(() -> {
      range.set(DashboardRange.query(prometheus, dashboard, scrapeStarted, Instant.now()));
      assertThat(range.get().blankQueries()).as("panel: query without two values since the scrape started").isEmpty();
    });
    Path work = Locations.workDir().resolve("monitoring");
    Path page = work.resolve("dashboard.html");
    DashboardPage.write(page, dashboard.title(), "Debian's Prometheus scraping local during a burst of " + BURST
        + " TrainJobs, " + TIME.format(range.get().start()) + " to " + TIME.format(range.get().end())
        + " UTC; drawn with uPlot", range.get());
    Path png = Path.of(System.getProperty("monitoring.screenshots", work.toString()), "dashboard.png");

    JsonNode drawn = DashboardPage.drawn(HeadlessChromium.screenshot(page, png, DashboardPage.WIDTH,
        DashboardPage.height(range.get()), work));

    assertThat(drawn.path("errors")).as("the page's errors").isEmpty();
    for (DashboardRange.PanelSeries panel : range.get().panels()) {
      if (!panel.panel().type().equals("row")) {
        JsonNode drawing = drawn.path("panels").path(panel.panel().title());
        assertThat(drawing.path("series").asInt()).as(panel.panel().title() + ": series or values drawn, " + png)
            .isPositive();
        assertThat(drawing.path("height").asInt()).as(panel.panel().title() + ": the plot's height, " + png)
            .isGreaterThanOrEqualTo(MIN_PLOT_HEIGHT);
      }
    }
  }
}
