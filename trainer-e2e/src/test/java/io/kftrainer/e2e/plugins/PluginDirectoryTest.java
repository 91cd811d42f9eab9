package io.kftrainer.e2e.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.TrainJobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A third-party plugin without a rebuild: the example plugin's jar (built by its own project) copied into
 * {@code <plugins>/team/} and passed to {@code local} with {@code --plugins-dir}. Its validation runs in the real
 * admission webhook (a namespace labelled {@code trainer.example.com/require-team} refuses TrainJobs without a
 * {@code team} label), and its build plugin changes the JobSet the operator applies (the pod label
 * {@code example.com/team} and the trainer's toleration).
 */
class PluginDirectoryTest {

  private static final String REQUIRE_TEAM = "trainer.example.com/require-team";

  private static LocalOperator operator;
  private static KubernetesClient client;

  @BeforeAll
  static void startWithThePluginDropped() throws IOException {
    Path plugins = Locations.workDir().resolve("plugins");
    Path team = Files.createDirectories(plugins.resolve("team"));
    Path jar = Locations.pluginExampleJar();
    Files.copy(jar, team.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    operator = LocalOperator.start("plugins", List.of("--plugins-dir", plugins.toString()));
    client = operator.client();
  }

  @AfterAll
  static void stop() {
    if (operator != null) {
      operator.close();
    }
  }

  @Test
  void trainJobWithoutTeamIsDeniedInNamespaceThatRequiresOne() {
    String namespace = operator.createNamespace("team-required", Map.of(REQUIRE_TEAM, "true"));

    Denial denial = awaitDenial(namespace, "anonymous");

    assertThat(denial.error().getCode()).isEqualTo(422);
    assertThat(denial.error().getStatus().getMessage()).isEqualTo(
        "admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request: "
            + "TrainJob.trainer.kubeflow.org \"" + denial.name() + "\" is invalid: metadata.labels[team]: "
            + "Required value: namespace " + namespace + " requires a team label on TrainJobs");
    assertThat(new TrainJobs(client, namespace).get(denial.name())).isNull();
  }

  @Test
  void trainJobWithoutTeamIsAdmittedWhereNoneIsRequired() {
    TrainJobs trainJobs = new TrainJobs(client, operator.createNamespace("team-free"));

    trainJobs.create(Manifests.resource("manifests/torch-trainjob.yaml", "anonymous"));

    trainJobs.awaitJobSet("anonymous");
    JobSet jobSet = trainJobs.jobSet("anonymous");
    assertThat(podLabels(jobSet.getSpec().getReplicatedJobs().get(0))).doesNotContainKey("example.com/team");
  }

  @Test
  void teamTrainJobGetsTheTeamLabelAndTolerationInItsJobSet() {
    TrainJobs trainJobs =
        new TrainJobs(client, operator.createNamespace("team-vision", Map.of(REQUIRE_TEAM, "true")));
    GenericKubernetesResource trainJob = Manifests.resource("manifests/torch-trainjob.yaml", "vision-train");
    trainJob.getMetadata().setLabels(Map.of("team", "vision"));

    trainJobs.create(trainJob);

    trainJobs.awaitJobSet("vision-train");
    ReplicatedJob node = trainJobs.jobSet("vision-train").getSpec().getReplicatedJobs().get(0);
    assertThat(podLabels(node)).containsEntry("example.com/team", "vision");
    PodSpec pod = node.getTemplate().getSpec().getTemplate().getSpec();
    assertThat(pod.getTolerations()).singleElement().satisfies(toleration -> {
      assertThat(toleration.getKey()).isEqualTo("example.com/dedicated");
      assertThat(toleration.getOperator()).isEqualTo("Equal");
      assertThat(toleration.getValue()).isEqualTo("vision");
      assertThat(toleration.getEffect()).isEqualTo("NoSchedule");
    });
  }

  /**
   * Creates TrainJobs without a team until one is denied, and returns the denial. The plugin reads the namespace's
   * labels from the operator's cache, which sees a new namespace a moment after it is created (as on a cluster);
   * TrainJobs admitted in that moment are deleted.
   */
  private static Denial awaitDenial(String namespace, String prefix) {
    AtomicInteger attempt = new AtomicInteger();
    AtomicReference<Denial> denial = new AtomicReference<>();
    await("a denial").atMost(TrainJobs.REACTION).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
        .until(() -> {
          String name = prefix + "-" + attempt.incrementAndGet();
          GenericKubernetesResource trainJob = Manifests.resource("manifests/torch-trainjob.yaml", name);
          try {
            client.resource(trainJob).inNamespace(namespace).create();
          } catch (KubernetesClientException e) {
            denial.set(new Denial(name, e));
            return true;
          }
          client.resource(trainJob).inNamespace(namespace).delete();
          return false;
        });
    return denial.get();
  }

  private record Denial(String name, KubernetesClientException error) {
  }

  private static Map<String, String> podLabels(ReplicatedJob job) {
    ObjectMeta metadata = job.getTemplate().getSpec().getTemplate().getMetadata();
    return metadata == null || metadata.getLabels() == null ? Map.of() : metadata.getLabels();
  }
}
