package io.kftrainer.deploy.image;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The operator image's AppCDS training run, done by running the image (Maven profile {@code image} of
 * trainer-deploy): the image without an archive is started as a container ({@link BwrapContainer}) with
 * {@code -XX:ArchiveClassesAtExit} added to its {@code JAVA_TOOL_OPTIONS}, runs {@code run} against
 * {@code trainer.jar apiserver} (CRDs, webhook configurations and runtimes installed) until ready, admits and
 * reconciles one TrainJob into its JobSet, and is stopped with SIGTERM: the JVM writes the archive as it exits.
 * Running the image itself makes the archive match it exactly: the same JVM and the jar at the same path, size and
 * time. The Dockerfile's {@code appcds-training.sh} is the same run for {@code docker build}.
 *
 * <p>Usage: {@code ImageArchiveTraining IMAGE_TAR ARCHIVE TRAINER_JAR TRAINJOB_YAML WORK_DIR}
 */
public final class ImageArchiveTraining {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final String ARCHIVE_DIR = "/var/run/appcds";
  private static final String KUBECONFIG = "/var/run/trainer/kubeconfig";

  private ImageArchiveTraining() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: ImageArchiveTraining IMAGE_TAR ARCHIVE TRAINER_JAR TRAINJOB_YAML WORK_DIR");
      System.exit(2);
    }
    Path archive = Path.of(args[1]).toAbsolutePath();
    train(Path.of(args[0]), archive, Path.of(args[2]), Path.of(args[3]), Path.of(args[4]).toAbsolutePath());
    System.out.println("AppCDS training: wrote " + archive + " (" + Files.size(archive) / 1024 / 1024 + " MiB)");
  }

  static void train(Path imageTar, Path archive, Path trainerJar, Path trainJob, Path work) throws Exception {
    if (!BwrapContainer.available()) {
      throw new IllegalStateException("the AppCDS training runs the image with bubblewrap: "
          + BwrapContainer.unavailableReason() + "; or skip the image with -DskipImage");
    }
    deleteRecursively(work);
    Files.createDirectories(archive.getParent());
    Files.deleteIfExists(archive);
    ImageArchive image = ImageArchive.read(imageTar);
    Path root = work.resolve("rootfs");
    image.unpack(root);

    int webhookPort = ApiServerProcess.freePort();
    int healthPort = ApiServerProcess.freePort();
    int metricsPort = ApiServerProcess.freePort();
    String javaOptions = image.config().env("JAVA_TOOL_OPTIONS").map(o -> o + " ").orElse("")
        + "-XX:ArchiveClassesAtExit=" + ARCHIVE_DIR + "/" + archive.getFileName();
    try (ApiServerProcess server = ApiServerProcess.start(trainerJar, work, webhookPort, false);
        KubernetesClient client = server.client();
        BwrapContainer container = BwrapContainer.builder(root, image.config())
            .args(List.of("run", "--webhook-port=" + webhookPort, "--health-port=" + healthPort,
                "--metrics-port=" + metricsPort, "--leader-elect=false"))
            .env("KUBECONFIG", KUBECONFIG)
            .env("JAVA_TOOL_OPTIONS", javaOptions)
            .readOnly(server.kubeconfig(), KUBECONFIG)
            .writable(archive.getParent(), ARCHIVE_DIR)
            .emptyDir("/tmp")
            .start(work.resolve("container.log"))) {
      await("the container's /readyz answers 200", container, () -> ready(healthPort));
      GenericKubernetesResource created;
      try (InputStream yaml = Files.newInputStream(trainJob)) {
        GenericKubernetesResource object = client.getKubernetesSerialization().unmarshal(yaml,
            GenericKubernetesResource.class);
        created = awaitValue("the TrainJob of " + trainJob + " is admitted", container,
            () -> create(client, object)).orElseThrow();
      }
      String name = created.getMetadata().getName();
      String namespace = created.getMetadata().getNamespace();
      await("the JobSet " + namespace + "/" + name + " exists", container,
          () -> client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(namespace)
              .withName(name).get() != null);
      container.terminate();
      Optional<Integer> exit = container.awaitExit(Duration.ofSeconds(60));
      if (exit.isEmpty() || !Files.isRegularFile(archive) || Files.size(archive) == 0) {
        throw new IllegalStateException("the container " + (exit.isEmpty() ? "did not stop on SIGTERM"
            : "exited with " + exit.get()) + " and wrote no archive at " + archive + "; its log:\n"
            + Files.readString(container.log()));
      }
    }
  }

  private static Optional<GenericKubernetesResource> create(KubernetesClient client,
      GenericKubernetesResource trainJob) {
    try {
      String namespace = Optional.ofNullable(trainJob.getMetadata().getNamespace()).orElse("default");
      return Optional.of(client.resource(trainJob).inNamespace(namespace).create());
    } catch (RuntimeException e) {
      return Optional.empty(); // the webhook may not serve yet: the operator publishes its CA as it becomes ready
    }
  }

  /** Whether {@code /readyz} on 127.0.0.1:healthPort answers 200. */
  static boolean ready(int healthPort) {
    try {
      HttpResponse<Void> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + healthPort + "/readyz")).timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void await(String what, BwrapContainer container, BooleanSupplier condition)
      throws IOException, InterruptedException {
    awaitValue(what, container, () -> condition.getAsBoolean() ? Optional.of(true) : Optional.empty());
  }

  private static <T> Optional<T> awaitValue(String what, BwrapContainer container,
      Supplier<Optional<T>> condition) throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      Optional<T> value = condition.get();
      if (value.isPresent()) {
        return value;
      }
      if (!container.isAlive()) {
        throw new IllegalStateException("the container exited before " + what + "; its log:\n"
            + Files.readString(container.log()));
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("timed out waiting until " + what + "; the container's log:\n"
        + Files.readString(container.log()));
  }

  static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
