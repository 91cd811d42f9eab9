package io.kftrainer.uitests;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.Stream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** The test trainings: {@code reporting-trainjob.yaml}, a training of python3's standard library that reports. */
final class Trainings {

  private Trainings() {
  }

  /** The reporting TrainJob named {@code name}, of {@code steps} steps of {@code delay} seconds, not created. */
  static TrainJob trainJob(KubernetesClient client, String name, int steps, double delay) {
    try (InputStream yaml = Trainings.class.getClassLoader().getResourceAsStream("reporting-trainjob.yaml")) {
      TrainJob trainJob = client.getKubernetesSerialization().unmarshal(yaml, TrainJob.class);
      trainJob.getMetadata().setName(name);
      trainJob.getSpec().getTrainer().setEnv(List.of(new EnvVar("STEPS", Integer.toString(steps), null),
          new EnvVar("DELAY", Double.toString(delay), null)));
      return trainJob;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates it; the test is skipped where python3 is not on the PATH, which runs its pods' commands. */
  static TrainJob create(KubernetesClient client, String namespace, String name, int steps, double delay) {
    Assumptions.assumeTrue(Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .anyMatch(directory -> !directory.isEmpty() && Files.isExecutable(Path.of(directory, "python3"))),
        "python3 is not on the PATH");
    return client.resources(TrainJob.class).inNamespace(namespace).resource(trainJob(client, name, steps, delay))
        .create();
  }
}
