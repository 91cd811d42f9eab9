package io.kftrainer.cli;

import io.kftrainer.local.LocalMode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.operator.command.Logging;
import io.kftrainer.operator.command.Streams;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * The training run of the build's AppCDS archive ({@code trainer-cli/target/trainer.jsa}, written by
 * {@code -XX:ArchiveClassesAtExit} when this ends): it does what users start, so that the archive holds the classes
 * they load before they are ready. In one JVM: {@code render} of a TrainJob (CLI, model, plugins, YAML), {@code local}
 * (embedded server, CRDs, CEL, webhooks, the operator and its informers) with that TrainJob applied and reconciled
 * to its JobSet, then {@code run} against {@code local}'s server until its {@code /readyz} answers 200 (kubeconfig,
 * rate limiter, its own servers).
 *
 * <pre>java -XX:ArchiveClassesAtExit=trainer.jsa -cp trainer.jar io.kftrainer.cli.AppCdsTraining TRAINJOB.yaml</pre>
 *
 * <p>It ends the JVM with {@code System.exit}: {@code run} stops on its shutdown hook, as on Ctrl-C.
 */
final class AppCdsTraining {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private AppCdsTraining() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: AppCdsTraining TRAINJOB.yaml");
      System.exit(2);
    }
    Path trainJob = Path.of(args[0]);
    Streams system = Streams.system();
    Streams quiet = new Streams(InputStream.nullInputStream(), new PrintWriter(Writer.nullWriter()), system.err());
    check(TrainerCli.execute(quiet, "render", "-f", trainJob.toString()) == 0, "render failed");
    Logging.setLevel(ch.qos.logback.classic.Level.WARN);

    Path work = Files.createTempDirectory("trainer-appcds-");
    work.toFile().deleteOnExit();
    work.resolve("kubeconfig").toFile().deleteOnExit();
    CommandLine trainer = TrainerCli.commandLine(quiet);
    trainer.parseArgs("local", "--no-execute", "--port", "0", "--kubeconfig-out", work.resolve("kubeconfig").toString());
    LocalCommand local = trainer.getSubcommands().get("local").getCommand();
    LocalMode mode = local.start();
    check(local.apply(mode, List.of(trainJob)), "applying " + trainJob + " failed");
    awaitJobSet(mode.client());

    int health = LocalMode.freePort();
    Thread run = new Thread(() -> TrainerCli.execute(quiet, "run", "--kubeconfig", mode.kubeconfig().toString(),
        "--leader-elect=false", "--health-port", Integer.toString(health), "--metrics-port",
        Integer.toString(LocalMode.freePort()), "--webhook-port", Integer.toString(LocalMode.freePort()),
        "--bind-address", "127.0.0.1"),
        "appcds-run");
    run.setDaemon(true);
    run.start();
    awaitReady(health);
    deleteTree(work); // local's data directory is in it
    System.exit(0);
  }

  private static void deleteTree(Path root) {
    try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: the system cleans it up in the end
    }
  }

  private static void awaitJobSet(KubernetesClient client) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (client.resources(JobSet.class).inAnyNamespace().list().getItems().isEmpty()) {
      check(System.nanoTime() < deadline, "no JobSet within " + TIMEOUT);
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private static void awaitReady(int healthPort) throws InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz")).build();
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      try {
        if (http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      check(System.nanoTime() < deadline, "run was not ready within " + TIMEOUT);
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private static void check(boolean condition, String failure) {
    if (!condition) {
      System.err.println("AppCDS training run: " + failure);
      System.exit(1);
    }
  }
}
