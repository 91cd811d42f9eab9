package io.kftrainer.e2e.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Kubectl;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.SharedLocalOperator;
import io.kftrainer.e2e.support.TrainJobs;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same product through the {@code kubectl} binary, with {@code KUBECONFIG} set to the kubeconfig {@code local}
 * wrote: {@code create -f}, {@code get trainjobs} and its {@code State} column, {@code describe},
 * {@code get events}, {@code apply --server-side}, {@code delete}, and a denial as kubectl prints it. Skipped, not
 * passed, where kubectl is not installed.
 */
@ExtendWith(SharedLocalOperator.class)
class KubectlTest {

  private static LocalOperator operator;
  private static Kubectl kubectl;
  private String namespace;

  @BeforeAll
  static void connect(LocalOperator local) {
    Assumptions.assumeTrue(Kubectl.isInstalled(), "kubectl not installed");
    operator = local;
    kubectl = local.kubectl();
  }

  @BeforeEach
  void namespace() {
    namespace = operator.createNamespace("kubectl");
  }

  @Test
  void createdTrainJobHasItsJobSetAndAnEmptyStateColumnAsUpstream() throws Exception {
    Command.Result created = kubectl("create", "-n", namespace, "-f", resource("manifests/torch-trainjob.yaml"));

    assertThat(created.stdout()).isEqualTo("trainjob.trainer.kubeflow.org/torch created\n");
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> assertThat(kubectl("get", "jobsets", "-n", namespace,
        "-l", TrainJobs.TRAINJOB_NAME_LABEL + "=torch", "-o", "name").stdout())
        .isEqualTo("jobset.jobset.x-k8s.io/torch\n"));
    assertThat(column(kubectl("get", "trainjobs", "-n", namespace), "torch", "STATE")).isEmpty();
  }

  @Test
  void describeShowsTheConditionsAndGetEventsTheEvents() throws Exception {
    String suspended = Manifests.text("manifests/torch-trainjob.yaml").replace("spec:\n", "spec:\n  suspend: true\n");
    kubectl.runWithInput(suspended, "create", "-n", namespace, "-f", "-");
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> assertThat(column(
        kubectl("get", "trainjobs", "-n", namespace), "torch", "STATE")).isEqualTo("Suspended"));

    Command.Result described = kubectl("describe", "trainjob", "torch", "-n", namespace);

    assertThat(described.stdout())
        .containsPattern("(?m)^Name:\\s+torch$")
        .containsPattern("(?m)^Namespace:\\s+" + namespace + "$")
        .containsPattern("(?m)^Kind:\\s+TrainJob$")
        .containsPattern("(?m)^\\s+Message:\\s+TrainJob is suspended$")
        .containsPattern("(?m)^\\s+Reason:\\s+Suspended$")
        .containsPattern("(?m)^\\s+Status:\\s+True$")
        .containsPattern("(?m)^\\s+Type:\\s+Suspended$");
    Command.Result events = kubectl("get", "events", "-n", namespace);
    assertThat(column(events, "trainjob/torch", "REASON")).isEqualTo("Suspended");
    assertThat(column(events, "trainjob/torch", "TYPE")).isEqualTo("Normal");
    assertThat(events.stdout()).contains("TrainJob is suspended");
  }

  @Test
  void applyServerSideSuspendsTheTrainJobAndItsJobSet() throws Exception {
    createAndAwaitJobSet();
    String suspended = Manifests.text("manifests/torch-trainjob.yaml").replace("spec:\n", "spec:\n  suspend: true\n");

    Command.Result applied = kubectl.runWithInput(suspended, "apply", "--server-side", "-n", namespace, "-f", "-");

    assertThat(applied.exitCode()).as(applied.describe()).isZero();
    assertThat(applied.stdout()).isEqualTo("trainjob.trainer.kubeflow.org/torch serverside-applied\n");
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> {
      assertThat(column(kubectl("get", "trainjobs", "-n", namespace), "torch", "STATE")).isEqualTo("Suspended");
      assertThat(kubectl("get", "jobset", "torch", "-n", namespace, "-o", "jsonpath={.spec.suspend}").stdout())
          .isEqualTo("true");
    });
  }

  @Test
  void deletedTrainJobIsGoneWithItsChildren() throws Exception {
    createAndAwaitJobSet();

    Command.Result deleted = kubectl("delete", "trainjob", "torch", "-n", namespace);

    assertThat(deleted.stdout()).isEqualTo("trainjob.trainer.kubeflow.org \"torch\" deleted\n");
    Command.Result gone = kubectl.run("get", "trainjob", "torch", "-n", namespace);
    assertThat(gone.exitCode()).isEqualTo(1);
    assertThat(gone.stderr())
        .isEqualTo("Error from server (NotFound): trainjobs.trainer.kubeflow.org \"torch\" not found\n");
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> assertThat(kubectl("get", "jobsets,configmaps,secrets",
        "-n", namespace, "-l", TrainJobs.TRAINJOB_NAME_LABEL + "=torch").stderr())
        .isEqualTo("No resources found in " + namespace + " namespace.\n"));
  }

  @Test
  void invalidTrainJobIsDeniedAsKubectlPrintsIt() throws Exception {
    String file = resource("manifests/reserved-env-trainjob.yaml");

    Command.Result denied = kubectl.run("create", "-n", namespace, "-f", file);

    assertThat(denied.exitCode()).as(denied.describe()).isEqualTo(1);
    assertThat(denied.stderr()).isEqualTo("The TrainJob \"reserved-env\" is invalid: spec.trainer.env: Invalid value: "
        + "[{\"name\":\"PET_NNODES\",\"value\":\"4\"}]: must not have reserved envs, invalid envs configured: "
        + "[PET_NNODES]\n");
    assertThat(kubectl.run("get", "trainjobs", "-n", namespace).stderr())
        .isEqualTo("No resources found in " + namespace + " namespace.\n");
  }

  private void createAndAwaitJobSet() throws URISyntaxException {
    kubectl("create", "-n", namespace, "-f", resource("manifests/torch-trainjob.yaml"));
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> assertThat(kubectl("get", "jobsets", "-n", namespace,
        "-o", "name").stdout()).isEqualTo("jobset.jobset.x-k8s.io/torch\n"));
  }

  /** Runs kubectl and fails the test unless it exits 0. */
  private static Command.Result kubectl(String... args) {
    Command.Result result = kubectl.run(args);
    assertThat(result.exitCode()).as(result.describe()).isZero();
    return result;
  }

  /**
   * The value in column {@code header} of the first row that has the value {@code row} in some column, in
   * kubectl's table output, where each column starts where its header starts.
   */
  private static String column(Command.Result table, String row, String header) {
    List<String> lines = table.stdout().lines().toList();
    assertThat(lines).as(table.describe()).isNotEmpty();
    String headers = lines.get(0);
    Matcher matcher = Pattern.compile("(?<=^|\\s)" + Pattern.quote(header) + "(?=\\s|$)").matcher(headers);
    assertThat(matcher.find()).as("column %s in %s", header, headers).isTrue();
    int start = matcher.start();
    int next = headers.indexOf(' ', matcher.end());
    while (next >= 0 && next < headers.length() && headers.charAt(next) == ' ') {
      next++;
    }
    int end = next < 0 || next >= headers.length() ? Integer.MAX_VALUE : next;
    return lines.stream().skip(1)
        .filter(line -> Arrays.asList(line.trim().split("\\s+")).contains(row))
        .map(line -> line.substring(Math.min(start, line.length()), Math.min(end, line.length())).trim())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + row + " in\n" + table.stdout()));
  }

  private static String resource(String name) throws URISyntaxException {
    return Path.of(KubectlTest.class.getClassLoader().getResource(name).toURI()).toString();
  }
}
