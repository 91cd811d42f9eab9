package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.operator.command.RunCommand;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The examples that need what this machine lacks (GPUs, an image's entrypoint, Flux) end {@code Failed} within
 * seconds, their condition saying why, instead of waiting without a word: applied unchanged to {@code local} as a
 * newcomer applies them (examples/README.md's "In local" table).
 */
class ExamplesThatCannotRunHereTest {

  /** Far below the minutes a Job's restarts with back-off would take. */
  private static final Duration AT_ONCE = Duration.ofSeconds(45);

  @TempDir
  static Path dir;

  private static LocalMode local;
  private static KubernetesClient client;
  private static final List<String> OUT = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    local = LocalMode.builder().port(0).kubeconfig(dir.resolve("kubeconfig"))
        .pluginsDir(dir.resolve("no-plugins")).components(RunCommand.components())
        .execute(dir.resolve("run"), 6).out(OUT::add).err(OUT::add).start();
    client = local.client();
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "torch-gpu-trainjob.yaml    | true  | Node didn't have enough resource: nvidia.com/gpu",
      "torch-runtime-patches.yaml | true  | Node didn't have enough resource: nvidia.com/gpu",
      "deepspeed-trainjob.yaml    | true  | Node didn't have enough resource: nvidia.com/gpu",
      "mlx-trainjob.yaml          | true  | Node didn't have enough resource: nvidia.com/gpu",
      "xgboost-trainjob.yaml      | true  | Node didn't have enough resource: nvidia.com/gpu",
      "torch-initializers.yaml    | false | the local executor runs no image entrypoint",
      "flux-trainjob.yaml         | false | the local executor cannot run Flux",
  })
  void anExampleThatCannotRunHereFailsAtOnceSayingWhy(String example, boolean needsGpus, String why)
      throws IOException {
    assumeTrue(!needsGpus || local.executor().orElseThrow().node().gpus().isEmpty(),
        "this machine has GPUs: the example may run");
    Path file = TrainingTest.examples().resolve(example);
    String name;
    try (InputStream in = Files.newInputStream(file)) {
      name = client.load(in).items().stream().filter(o -> "TrainJob".equals(o.getKind())).findFirst().orElseThrow()
          .getMetadata().getName();
    }
    long start = System.nanoTime();
    try (InputStream in = Files.newInputStream(file)) {
      client.load(in).fieldManager("examples-test").forceConflicts().serverSideApply();
    }

    TrainJob failed = await().atMost(AT_ONCE).until(
        () -> client.resources(TrainJob.class).inNamespace("default").withName(name).get(),
        tj -> tj != null && tj.getStatus() != null && tj.getStatus().getConditions() != null
            && tj.getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("Failed") && c.getStatus().equals("True")));

    System.out.printf("%s in local: Failed %d ms after it was applied%n", example,
        Duration.ofNanos(System.nanoTime() - start).toMillis());
    assertThat(failed.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Failed")).singleElement()
        .satisfies(c -> assertThat(c.getMessage()).contains(why));
  }
}
