package io.kftrainer.e2e.optimization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationJobStatus;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrialResult;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Kubectl;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.LocalOperator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hyperparameter optimization in {@code local}, with real training: every trial is a TrainJob whose pod trains a
 * linear model with torch at the learning rate the OptimizationJob gave it and reports its loss (see
 * {@code optimization/train.py}: by upstream's status-server contract when the TrainJob has a status server, else
 * with a merge patch of the TrainJob's status through the API server). Skipped without Debian's python3-torch.
 */
class OptimizationJobTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String PYTHON = "/usr/bin/python3";
  private static final Duration SEARCH = Duration.ofSeconds(240);

  private static LocalOperator local;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    assumeTrue(python("import torch"), "python3-torch is not installed");
    local = LocalOperator.startExecuting("optimization", List.of("--max-pods", "4"));
    client = local.client();
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void sixTrialsTwoAtOnceFindTheLowestLossAndKeepTheirHistory() throws IOException {
    String ns = local.createNamespace("hpo");
    ObjectNode job = optimizationJob("lr-search", 6, 2, 20, 0);
    create(ns, job);

    OptimizationJob done = awaitEnded(ns, "lr-search");
    OptimizationJobStatus status = done.getStatus();
    assertThat(condition(done, "Complete")).isEqualTo("MaxTrialsReached");
    assertThat(status.getTrials()).hasSize(6).extracting(TrialResult::getState).containsOnly("Succeeded");
    assertThat(status.getNextTrialIndex()).isEqualTo(6);
    assertThat(status.getProgress()).isEqualTo("6/6");

    // each trial trained with its own value and reported what its process printed
    for (TrialResult trial : status.getTrials()) {
      TrainJob trainJob = client.resources(TrainJob.class).inNamespace(ns).withName(trial.getTrainJobName()).get();
      assertThat(trainJob.getSpec().getTrainer().getEnv()).contains(
          new EnvVar("KUBEFLOW_TRAINER_OPT_LR", trial.getParameters().get(0).getValue(), null));
      String log = log(ns, trial.getTrainJobName());
      assertThat(log).contains("training with lr " + Double.parseDouble(trial.getParameters().get(0).getValue()))
          .contains("final loss " + loss(trial));
    }
    TrialResult lowest = status.getTrials().stream().min(Comparator.comparingDouble(t -> Double.parseDouble(loss(t))))
        .orElseThrow();
    assertThat(status.getResult().getTrainJobName()).isEqualTo(lowest.getTrainJobName());
    assertThat(status.getResult().getParameters()).isEqualTo(lowest.getParameters());
    assertThat(maxRunningAtOnce(status.getTrials())).as("trials at once: %s", status.getTrials()).isBetween(1, 2);
    assertThat(Files.readString(local.log())).contains(
        "optimizationjob " + ns + "/lr-search: trial lr-search-trial-0 started: lr=",
        "optimizationjob " + ns + "/lr-search: trial " + lowest.getTrainJobName() + " Succeeded: loss=" + loss(lowest),
        "optimizationjob " + ns + "/lr-search: Complete (MaxTrialsReached): 6 of 6 trials ended (6 Succeeded); best "
            + "loss " + loss(lowest) + " by trial " + lowest.getTrainJobName());
    if (Kubectl.isInstalled()) {
      Command.Result get = local.kubectl().run("get", "optimizationjobs", "-n", ns);
      assertThat(get.stdout()).as(get.describe()).containsPattern("NAME\\s+STATE\\s+TRIALS\\s+BEST\\s+AGE")
          .containsPattern("lr-search\\s+Complete\\s+6/6\\s+" + loss(lowest).replace(".", "\\."));
      Command.Result describe = local.kubectl().run("describe", "optimizationjob", "lr-search", "-n", ns);
      assertThat(describe.stdout()).as(describe.describe()).contains("Trials:")
          .containsPattern("Train Job Name:\\s+lr-search-trial-5").containsPattern("Next Trial Index:\\s+6");
    }

    // the best trial's TrainJob deleted: the history stays as it was, and is not written again
    String resourceVersion = done.getMetadata().getResourceVersion();
    client.resources(TrainJob.class).inNamespace(ns).withName(lowest.getTrainJobName()).delete();
    await().atMost(Duration.ofSeconds(30)).until(() -> client.resources(TrainJob.class).inNamespace(ns)
        .withName(lowest.getTrainJobName()).get() == null);
    await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> get(ns, "lr-search")
        .getMetadata().getResourceVersion().equals(resourceVersion));
    assertThat(get(ns, "lr-search").getStatus()).isEqualTo(status);

    // the OptimizationJob deleted: its trials go with it
    client.resources(OptimizationJob.class).inNamespace(ns).withName("lr-search").delete();
    await().atMost(Duration.ofSeconds(60)).until(() -> client.resources(TrainJob.class).inNamespace(ns).list()
        .getItems().isEmpty());
  }

  @Test
  void medianStoppingStopsATrialWorseThanTheMedianHalfway() {
    String ns = local.createNamespace("early");
    ObjectNode job = optimizationJob("early", 4, 1, 20, 0.3);
    job.withObjectProperty("metadata").withObjectProperty("annotations").put("kftrainer.io/early-stopping",
        "{\"medianStop\": {\"minTrialsRequired\": 2, \"startProgress\": 50}}");
    // grid over the choices, in order: two good learning rates, a far too small one, then a better one
    ObjectNode spec = job.withObjectProperty("spec");
    spec.set("searchAlgorithm", YAML.createObjectNode().set("grid", YAML.createObjectNode()));
    ((ObjectNode) spec.path("parameters").path(0)).set("searchSpace", YAML.createObjectNode().set("categorical",
        YAML.createObjectNode().set("choices", YAML.createArrayNode().add("0.1").add("0.08").add("0.00001")
            .add("0.2"))));
    create(ns, job);

    OptimizationJob done = awaitEnded(ns, "early");

    assertThat(condition(done, "Complete")).isEqualTo("MaxTrialsReached");
    List<TrialResult> trials = done.getStatus().getTrials();
    assertThat(trials).extracting(TrialResult::getState)
        .containsExactly("Succeeded", "Succeeded", "EarlyStopped", "Succeeded");
    TrialResult stopped = trials.get(2);
    assertThat(stopped.getReason()).isEqualTo("MedianStop");
    assertThat(stopped.getParameters().get(0).getValue()).isEqualTo("0.00001");
    assertThat(stopped.getEarlyStoppingObservation().getProgressPercentage()).isBetween(50, 99);
    double median = (observed(trials.get(0)) + observed(trials.get(1))) / 2;
    assertThat(observed(stopped)).as("stopped trial's loss vs the median %s", median).isGreaterThan(median);
    assertThat(client.resources(TrainJob.class).inNamespace(ns).withName(stopped.getTrainJobName()).get())
        .as("the stopped trial's TrainJob is deleted").isNull();
    assertThat(trials.get(0).getEarlyStoppingObservation()).isNotNull();
    assertThat(done.getStatus().getResult().getTrainJobName()).isNotEqualTo(stopped.getTrainJobName());
  }

  /**
   * The Kubeflow SDK's trainer-native backend ({@code kubeflow.optimizer.backends.trainer_native}), as its calls go:
   * the create body {@code optimize()} builds, {@code wait_for_job_status()}'s reading of the conditions,
   * {@code get_best_results()}'s reading of {@code status.result} and of the best trial's TrainJob, and
   * {@code get_job_events()}; with the official Kubernetes Python client (Debian's python3-kubernetes).
   */
  @Test
  void theSdksTrainerNativeBackendCreatesWaitsAndReadsTheBestTrial() throws Exception {
    assumeTrue(python("import kubernetes"), "python3-kubernetes is not installed");
    String ns = local.createNamespace("sdk");
    Path script = resourcePath("optimization/sdk_trainer_native.py");
    Process process = new ProcessBuilder(PYTHON, script.toString(), local.kubeconfig().toString(), ns,
        local.client().getMasterUrl().toString().replaceAll("/$", ""), trainScript())
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(SEARCH.toSeconds(), TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(output).isZero();
    List<String> lines = output.lines().toList();
    assertThat(lines).as(output).anySatisfy(line -> assertThat(line).matches("created [a-z][0-9a-f]{11}"))
        .contains("status: Complete");
    String best = lines.stream().filter(l -> l.startsWith("best trial: ")).findFirst().orElseThrow()
        .substring("best trial: ".length());
    String name = best.split(" ")[0];
    OptimizationJob job = client.resources(OptimizationJob.class).inNamespace(ns).list().getItems().get(0);
    assertThat(job.getStatus().getResult().getTrainJobName()).isEqualTo(name);
    assertThat(best).isEqualTo(name + " {'lr': '" + job.getStatus().getResult().getParameters().get(0).getValue()
        + "'} trainjob Complete");
    assertThat(lines).contains("events: OptimizationJob MaxTrialsReached, OptimizationJob TrialStarted, "
        + "OptimizationJob TrialSucceeded");
  }

  @Test
  void theExampleIsAcceptedAndItsTrialsGetTheirLearningRates() throws IOException {
    String ns = local.createNamespace("example");
    JsonNode example = YAML.readTree(Locations.examplesDir().resolve("hpo-torch.yaml").toFile());
    create(ns, (ObjectNode) example);

    List<TrainJob> trials = await().atMost(Duration.ofSeconds(60)).until(() -> client.resources(TrainJob.class)
        .inNamespace(ns).withLabel("trainer.kubeflow.org/optimization-job", "torch-lr").list().getItems(),
        list -> list.size() == 2);
    OptimizationJob job = get(ns, "torch-lr");
    Map<String, String> values = new TreeMap<>();
    job.getStatus().getTrials().forEach(t -> values.put(t.getTrainJobName(), t.getParameters().get(0).getValue()));
    assertThat(trials).allSatisfy(trial -> assertThat(trial.getSpec().getTrainer().getEnv()).contains(
        new EnvVar("KUBEFLOW_TRAINER_OPT_LR", values.get(trial.getMetadata().getName()), null)));
    assertThat(values.values()).allSatisfy(lr -> assertThat(Double.parseDouble(lr)).isBetween(0.001, 0.3));
    client.resources(OptimizationJob.class).inNamespace(ns).withName("torch-lr").delete();
    await().atMost(Duration.ofSeconds(60)).until(() -> client.resources(TrainJob.class).inNamespace(ns).list()
        .getItems().isEmpty());
  }

  /** An OptimizationJob of {@code train.py} trials over {@code lr}, reporting through local mode's API server. */
  private static ObjectNode optimizationJob(String name, int numTrials, int parallelTrials, int steps, double pause) {
    ObjectNode job = (ObjectNode) read("optimization/lr-search.yaml");
    job.withObjectProperty("metadata").put("name", name);
    ObjectNode spec = job.withObjectProperty("spec");
    spec.put("numTrials", numTrials).put("parallelTrials", parallelTrials);
    ObjectNode trainer = spec.withObjectProperty("trainJobTemplate").withObjectProperty("spec")
        .withObjectProperty("trainer");
    trainer.withArray("command").add(trainScript());
    ArrayNode env = trainer.withArray("env");
    env.addObject().put("name", "E2E_API_SERVER").put("value", apiServer());
    env.addObject().put("name", "E2E_STEPS").put("value", Integer.toString(steps));
    env.addObject().put("name", "E2E_PAUSE").put("value", Double.toString(pause));
    return job;
  }

  private static String apiServer() {
    return client.getMasterUrl().toString().replaceAll("/$", "");
  }

  private static String trainScript() {
    try {
      return Files.readString(resourcePath("optimization/train.py"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void create(String ns, ObjectNode job) {
    job.withObjectProperty("metadata").put("namespace", ns);
    client.resource(client.getKubernetesSerialization().convertValue(job, OptimizationJob.class)).create();
  }

  private static OptimizationJob get(String ns, String name) {
    return client.resources(OptimizationJob.class).inNamespace(ns).withName(name).get();
  }

  private static OptimizationJob awaitEnded(String ns, String name) {
    return await().atMost(SEARCH).pollInterval(Duration.ofSeconds(1)).until(() -> get(ns, name), job ->
        job != null && job.getStatus() != null && job.getStatus().getConditions() != null
            && job.getStatus().getConditions().stream().anyMatch(c -> "True".equals(c.getStatus())
                && ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))));
  }

  /** The reason of the condition {@code type}, which must be true. */
  private static String condition(OptimizationJob job, String type) {
    return job.getStatus().getConditions().stream().filter(c -> type.equals(c.getType()))
        .filter(c -> "True".equals(c.getStatus())).findFirst()
        .map(c -> c.getReason()).orElseThrow(() -> new AssertionError("no " + type + " in " + job.getStatus()));
  }

  private static String loss(TrialResult trial) {
    return trial.getMetrics().stream().filter(m -> "loss".equals(m.getName())).map(Metric::getValue).findFirst()
        .orElseThrow();
  }

  private static double observed(TrialResult trial) {
    return Double.parseDouble(trial.getEarlyStoppingObservation().getMetrics().get(0).getValue());
  }

  /**
   * The most trials running at one time, from the history's creation and completion times, to the second: a record
   * is written at a whole second, the TrainJob condition a completion time comes from may have a fraction.
   */
  private static int maxRunningAtOnce(List<TrialResult> trials) {
    int most = 0;
    for (TrialResult trial : trials) {
      Instant at = second(trial.getCreationTime());
      int running = (int) trials.stream().filter(t -> !second(t.getCreationTime()).isAfter(at)
          && second(t.getCompletionTime()).isAfter(at)).count();
      most = Math.max(most, running);
    }
    return most;
  }

  private static Instant second(String time) {
    return Instant.parse(time).truncatedTo(ChronoUnit.SECONDS);
  }

  private static String log(String ns, String trainJob) {
    Pod pod = client.pods().inNamespace(ns).withLabel("jobset.sigs.k8s.io/jobset-name", trainJob).list().getItems()
        .stream().findFirst().orElseThrow(() -> new AssertionError("no pod of " + trainJob));
    return client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).getLog();
  }

  private static JsonNode read(String resource) {
    try (InputStream in = Objects.requireNonNull(OptimizationJobTest.class.getClassLoader()
        .getResourceAsStream(resource), resource)) {
      return YAML.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path resourcePath(String resource) {
    try {
      return Path.of(Objects.requireNonNull(OptimizationJobTest.class.getClassLoader().getResource(resource),
          resource).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static boolean python(String statement) {
    if (!Files.isExecutable(Path.of(PYTHON))) {
      return false;
    }
    try {
      Process process = new ProcessBuilder(PYTHON, "-c", statement).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
