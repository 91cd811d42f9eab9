package io.kftrainer.cli;

import io.kftrainer.local.LocalMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.operator.command.Streams;
import io.kftrainer.testkit.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code local} end to end, in process: the command's options, {@code run}'s components, the operator's real
 * webhooks over HTTPS, and kubectl when it is installed. One local mode serves every test; each test uses TrainJobs
 * of its own names.
 */
class LocalCommandTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String NAMESPACE = "default";
  private static final Path KUBECTL = Path.of("/usr/bin/kubectl");

  @TempDir
  static Path dir;

  private static final StringWriter OUT = new StringWriter();
  private static final StringWriter ERR = new StringWriter();
  private static LocalMode local;
  private static LocalCommand command;
  private static KubernetesClient client;
  private static Set<InetSocketAddress> listeningBefore = Set.of();

  @BeforeAll
  static void startLocalMode() throws Exception {
    if (ListeningSockets.available()) {
      listeningBefore = ListeningSockets.ofThisProcess();
    }
    command = new LocalCommand(new Streams(InputStream.nullInputStream(), new PrintWriter(OUT, true),
        new PrintWriter(ERR, true)));
    new CommandLine(command).parseArgs("--port=0", "--kubeconfig-out=" + dir.resolve("kubeconfig"),
        "--apply", resourcePath("local/apply").toString(), "--plugins-dir=" + dir.resolve("no-plugins"));
    local = command.start();
    client = local.client();
  }

  @AfterAll
  static void stopLocalMode() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void aTrainJobOfAShippedRuntimeGetsItsJobSetAndUpstreamsConditionsOnly() {
    create("mnist", trainJob -> { });

    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(jobSet("mnist")).isPresent());
    TrainJob stored = client.resources(TrainJob.class).inNamespace(NAMESPACE).withName("mnist").get();
    assertThat(stored.getStatus() == null ? List.of() : stored.getStatus().getConditions()).isNullOrEmpty();
  }

  @Test
  void everyServerOfLocalModeListensOnLoopbackOnly() {
    assumeTrue(ListeningSockets.available(), "no /proc/self/net/tcp to list the listening sockets");

    Set<InetSocketAddress> opened = new LinkedHashSet<>(ListeningSockets.ofThisProcess());
    opened.removeAll(listeningBefore);

    // the API server, the webhook server, the health server and the metrics server
    assertThat(opened).hasSizeGreaterThanOrEqualTo(4)
        .allSatisfy(address -> assertThat(address.getAddress().isLoopbackAddress()).as(address.toString()).isTrue());
    assertThat(opened).extracting(InetSocketAddress::getPort).contains(local.config().webhook().port());
  }

  @Test
  void aTrainJobIsStoredWithItsCrdDefaultsAsByAClusterApiServer() {
    create("defaulted", trainJob -> { });

    TrainJob stored = client.resources(TrainJob.class).inNamespace(NAMESPACE).withName("defaulted").get();
    assertThat(stored.getSpec().getRuntimeRef().getApiGroup()).isEqualTo("trainer.kubeflow.org");
    assertThat(stored.getSpec().getRuntimeRef().getKind()).isEqualTo("ClusterTrainingRuntime");
    assertThat(stored.getSpec().getManagedBy()).isEqualTo("trainer.kubeflow.org/trainjob-controller");
    assertThat(stored.getSpec().getSuspend()).isFalse();
  }

  @Test
  void eachTransitionIsOneProgressLineNamingTheChildren() {
    create("progress", trainJob -> { });

    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(OUT.toString()).contains(
        "trainjob default/progress: created JobSet progress, ConfigMap progress-runtime-snapshot, "
            + "ConfigMap progress-tls-config\n"));
  }

  static Stream<Arguments> invalidTrainJobs() {
    return Stream.of(
        Arguments.of("a reserved env of the torch plugin is refused",
            (Consumer<TrainJob>) trainJob -> trainJob.getSpec().getTrainer()
                .setEnv(List.of(new EnvVar("PET_NNODES", "3", null))),
            "spec.trainer.env",
            "TrainJob.trainer.kubeflow.org \"invalid\" is invalid: spec.trainer.env: Invalid value: "
                + "[{\"name\":\"PET_NNODES\",\"value\":\"3\"}]: must not have reserved envs, invalid envs configured: "
                + "[PET_NNODES]"),
        Arguments.of("a runtime that does not exist is refused",
            (Consumer<TrainJob>) trainJob -> trainJob.getSpec().getRuntimeRef().setName("no-such-runtime"),
            "spec.runtimeRef",
            "TrainJob.trainer.kubeflow.org \"invalid\" is invalid: spec.runtimeRef: Not found: \"no-such-runtime\": "
                + "specified clusterTrainingRuntime must be created before the TrainJob is created"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidTrainJobs")
  void anInvalidTrainJobIsRefusedWithTheWebhooksMessage(String name, Consumer<TrainJob> edit, String field,
      String message) {
    assertThatThrownBy(() -> create("invalid", edit))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          Status status = e.getStatus();
          assertThat(status.getCode()).isEqualTo(422);
          assertThat(status.getReason()).isEqualTo("Invalid");
          assertThat(status.getMessage()).isEqualTo(
              "admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request: " + message);
          assertThat(status.getDetails().getCauses()).extracting(StatusCause::getField).containsExactly(field);
        });
    assertThat(client.resources(TrainJob.class).inNamespace(NAMESPACE).withName("invalid").get()).isNull();
  }

  @Test
  void theMutatingWebhookStampsTheTimeOfRuntimePatches() {
    Instant before = Instant.now().minusSeconds(1);

    TrainJob stored = create("patched", trainJob -> {
      RuntimePatch patch = new RuntimePatch();
      patch.setManager("example.com/tests");
      trainJob.getSpec().setRuntimePatches(List.of(patch));
    });

    String time = stored.getSpec().getRuntimePatches().get(0).getTime();
    assertThat(time).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(Instant.parse(time)).isAfterOrEqualTo(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
  }

  @Test
  void theKubeconfigGivesAClientOfTheEmbeddedServer() {
    assertThat(local.kubeconfig()).isEqualTo(dir.resolve("kubeconfig").toAbsolutePath());
    create("via-kubeconfig", trainJob -> { });

    try (KubernetesClient fromKubeconfig = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(local.kubeconfig().toFile())).build()) {
      assertThat(fromKubeconfig.resources(TrainJob.class).list().getItems())
          .extracting(trainJob -> trainJob.getMetadata().getName()).contains("via-kubeconfig");
      assertThat(fromKubeconfig.resources(ClusterTrainingRuntime.class).list().getItems())
          .extracting(runtime -> runtime.getMetadata().getName())
          .containsExactlyInAnyOrderElementsOf(local.runtimes())
          .contains("torch-distributed", "deepspeed-distributed");
      assertThat(fromKubeconfig.resources(ClusterTrainingRuntime.class).list().getItems())
          .as("the labels of manifests/runtimes/kustomization.yaml")
          .allSatisfy(runtime -> assertThat(runtime.getMetadata().getLabels())
              .containsEntry("trainer.kubeflow.org/webhook-validation", "disabled"));
    }
  }

  @Test
  void theStateIsKeptBesideTheKubeconfigAndTheBannerSaysWhere() {
    Path data = dir.resolve(LocalCommand.DEFAULT_DATA_DIR).toAbsolutePath();
    assertThat(OUT.toString()).contains("  data         " + data + " (kept across restarts; delete it to start "
        + "afresh)\n", "  pods         run as processes of this machine, under " + data.resolve("pods") + ", ");
    assertThat(local.dataDir()).hasValue(data);
    assertThat(data.resolve("state.db")).isRegularFile();
  }

  @Test
  void anEphemeralLocalDeletesThePodsDirectoryItMadeWhenItStops() throws InterruptedException {
    LocalCommand ephemeral = new LocalCommand(new Streams(InputStream.nullInputStream(),
        new PrintWriter(new StringWriter(), true), new PrintWriter(new StringWriter(), true)));
    new CommandLine(ephemeral).parseArgs("--ephemeral", "--port=0", "--max-pods=1",
        "--kubeconfig-out=" + dir.resolve("ephemeral.kubeconfig"));
    LocalMode started = ephemeral.start();
    Path pods = started.executor().orElseThrow().runDir();
    assertThat(pods).isDirectory().startsWith(Path.of(System.getProperty("java.io.tmpdir")));

    ephemeral.stop(started);

    assertThat(pods).as("the pods' files and Secrets end with local, as its state does").doesNotExist();
  }

  @Test
  void ephemeralAndADataDirectoryExcludeEachOther() {
    LocalCommand both = new LocalCommand(new Streams(InputStream.nullInputStream(), new PrintWriter(OUT, true),
        new PrintWriter(ERR, true)));
    new CommandLine(both).parseArgs("--ephemeral", "--data-dir=" + dir.resolve("other"));
    assertThatThrownBy(both::start).hasMessageContaining("--ephemeral and --data-dir exclude each other");
    assertThat(dir.resolve("other")).doesNotExist();
  }

  @Test
  void theApplyFilesGoThroughTheWebhooksAndEachObjectIsReported() {
    assertThat(OUT.toString()).contains("trainjob.trainer.kubeflow.org/applied created\n");
    assertThat(ERR.toString()).contains("Error from server (Invalid): error when creating \""
        + resourcePath("local/apply/jobs.yaml") + "\": admission webhook \"validator.trainjob.trainer.kubeflow.org\" "
        + "denied the request: TrainJob.trainer.kubeflow.org \"applied-invalid\" is invalid: spec.runtimeRef: ");
    assertThat(client.resources(TrainJob.class).inNamespace(NAMESPACE).withName("applied").get()).isNotNull();
    assertThat(OUT.toString().indexOf("Press Ctrl-C to stop")).as("the banner comes first")
        .isLessThan(OUT.toString().indexOf("trainjob.trainer.kubeflow.org/applied created"));

    assertThat(command.apply(local, List.of(resourcePath("local/apply")))).as("everything applied").isFalse();
    assertThat(OUT.toString()).containsPattern("trainjob.trainer.kubeflow.org/applied (unchanged|configured)\n");
  }

  @Test
  void theBannerSaysHowKubectlAndTheKubeflowSdkReachLocal() {
    assertThat(OUT.toString()).contains("\n  export KUBECONFIG=" + local.kubeconfig() + "\n",
        "\nOr with the Kubeflow SDK (pip install kubeflow), in Python started with that KUBECONFIG:\n"
            + "  from kubeflow.trainer import TrainerClient\n"
            + "  client = TrainerClient()\n");
  }

  @Test
  void theBannerGivesTheUisOneTimeLoginLinkOnLoopback() throws Exception {
    Matcher link = Pattern.compile(
        "\n  UI           (http://127\\.0\\.0\\.1:\\d+/login\\?code=[A-Za-z0-9_-]{43}) \\(signs one browser in, once; "
            + "keep it private\\)\n").matcher(OUT.toString());
    assertThat(link.find()).as(OUT.toString()).isTrue();
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> first = http.send(HttpRequest.newBuilder(URI.create(link.group(1))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(first.statusCode()).isEqualTo(303);
    assertThat(first.headers().firstValue("Set-Cookie")).hasValueSatisfying(cookie ->
        assertThat(cookie).startsWith("kftrainer-ui=").contains("HttpOnly"));
  }

  @Test
  void theBannerShowsTheNodesResources() {
    assertThat(OUT.toString()).containsPattern("\n  node         local: \\d+ CPUs?, [0-9.]+ GiB memory, (no GPU|\\d+ "
        + "GPUs? \\(.*\\)), \\d+ pods \\(kubectl describe node local\\)\n");
  }

  @Test
  void anInvalidGpusOptionIsRefusedNamingTheOptionBeforeAnythingStarts() {
    LocalCommand bad = new LocalCommand(new Streams(InputStream.nullInputStream(), new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter())));
    new CommandLine(bad).parseArgs("--port=0", "--gpus=all", "--kubeconfig-out=" + dir.resolve("bad-kubeconfig"));

    assertThatThrownBy(bad::start).hasMessage("--gpus: Invalid value: \"all\": must be auto, none or a count");
    assertThat(dir.resolve("bad-kubeconfig")).doesNotExist();
  }

  @Test
  void deletingATrainJobDeletesItsChildren() {
    create("short-lived", trainJob -> { });
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(jobSet("short-lived")).isPresent());

    client.resources(TrainJob.class).inNamespace(NAMESPACE).withName("short-lived").delete();

    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(jobSet("short-lived")).isEmpty();
      assertThat(client.configMaps().inNamespace(NAMESPACE).withName("short-lived-runtime-snapshot").get()).isNull();
      assertThat(OUT.toString()).contains("trainjob default/short-lived: deleted\n");
    });
  }

  @Test
  void kubectlCreatesListsCompletesAndDeletesATrainJob() throws IOException {
    assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed at " + KUBECTL);
    Path file = Files.writeString(dir.resolve("kubectl-job.yaml"),
        Fixtures.resource("local/trainjob.yaml").replace("name: job", "name: with-kubectl"));
    Path invalid = Files.writeString(dir.resolve("kubectl-invalid.yaml"),
        Fixtures.resource("local/trainjob.yaml").replace("name: job", "name: kubectl-invalid")
            .replace("name: torch-distributed", "name: no-such-runtime"));

    assertThat(kubectl("create", "-f", file.toString())).isEqualTo("trainjob.trainer.kubeflow.org/with-kubectl created\n");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(kubectl("get", "trainjobs"))
        .containsPattern("NAME +STATE +RESTARTS +PROGRESS +AGE\n(.*\n)*with-kubectl +\\S+\n"));
    assertThat(kubectl("get", "jobsets,configmaps")).contains("jobset.jobset.x-k8s.io/with-kubectl",
        "configmap/with-kubectl-runtime-snapshot");

    assertThat(kubectlFails("create", "-f", invalid.toString())).isEqualTo("The TrainJob \"kubectl-invalid\" is "
        + "invalid: spec.runtimeRef: Not found: \"no-such-runtime\": specified clusterTrainingRuntime must be created "
        + "before the TrainJob is created\n");

    kubectl("patch", "jobset", "with-kubectl", "--subresource=status", "--type=merge", "-p",
        "{\"status\":{\"conditions\":[{\"type\":\"Completed\",\"status\":\"True\",\"reason\":\"AllJobsCompleted\","
            + "\"message\":\"jobset completed successfully\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}]}}");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(kubectl("get", "trainjob", "with-kubectl"))
        .containsPattern("with-kubectl +Complete +\\S+\n"));

    assertThat(kubectl("delete", "trainjob", "with-kubectl"))
        .isEqualTo("trainjob.trainer.kubeflow.org \"with-kubectl\" deleted\n");
    assertThat(client.resources(TrainJob.class).inNamespace(NAMESPACE).withName("with-kubectl").get()).isNull();
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static TrainJob create(String name, Consumer<TrainJob> edit) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("local/trainjob.yaml"));
    trainJob.getMetadata().setName(name);
    trainJob.getMetadata().setNamespace(NAMESPACE);
    edit.accept(trainJob);
    return client.resource(trainJob).create();
  }

  private static Optional<JobSet> jobSet(String name) {
    return Optional.ofNullable(client.resources(JobSet.class).inNamespace(NAMESPACE).withName(name).get());
  }

  private static Condition awaitCondition(String name, String type) {
    return await().atMost(TIMEOUT).until(() -> {
      TrainJob trainJob = client.resources(TrainJob.class).inNamespace(NAMESPACE).withName(name).get();
      return trainJob.getStatus() == null ? Optional.<Condition>empty()
          : Conditions.find(trainJob.getStatus().getConditions(), type);
    }, Optional::isPresent).orElseThrow();
  }

  private static Path resourcePath(String resource) {
    try {
      return Path.of(LocalCommandTest.class.getClassLoader().getResource(resource).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String kubectl(String... args) {
    KubectlRun run = runKubectl(args);
    assertThat(run.exitCode()).as("kubectl %s: %s", String.join(" ", args), run.output()).isZero();
    return run.output();
  }

  private static String kubectlFails(String... args) {
    KubectlRun run = runKubectl(args);
    assertThat(run.exitCode()).as("kubectl %s: %s", String.join(" ", args), run.output()).isNotZero();
    return run.output();
  }

  private record KubectlRun(int exitCode, String output) {
  }

  private static KubectlRun runKubectl(String... args) {
    List<String> command = new ArrayList<>(List.of(KUBECTL.toString(), "--kubeconfig", local.kubeconfig().toString(),
        "--cache-dir", dir.resolve("kubectl-cache").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("HOME", dir.toString());
    builder.environment().remove("KUBECONFIG");
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      String output;
      try (InputStream in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl %s finished", args[0]).isTrue();
      return new KubectlRun(process.exitValue(), output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
