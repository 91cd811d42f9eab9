package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.executor.LocalExecutor;
import io.kftrainer.operator.command.RunCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resume from a checkpoint, as a contract (issue 35, item 3): examples/torch-checkpoint.yaml, a 2-node DDP training
 * whose node 1 is SIGKILLed halfway, restarts once, resumes from its last checkpoint and ends as an uninterrupted
 * run with the same seed, in about the same time plus the work lost since that checkpoint.
 */
class CheckpointResumeTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(180);
  private static final String NS = "default";
  /** The restart's own cost: the failed node's Job fails, the JobSet restarts, the pods start and rendezvous. */
  private static final Duration RESTART_ALLOWANCE = Duration.ofSeconds(3);
  /** local's part of a restart: from the kill to the new attempt's pods running. */
  private static final Duration RESTART_MACHINERY = Duration.ofSeconds(1);

  @TempDir
  static Path dir;

  private static LocalMode local;
  private static KubernetesClient client;
  private static LocalExecutor executor;
  private static final List<String> OUT = new CopyOnWriteArrayList<>();
  /** Local's lines with the time each came, printed for the figures of docs/failures.md. */
  private static final List<String> TIMED = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(TrainingTest.python("import torch"), "python3-torch is not installed");
    local = LocalMode.builder().port(0).kubeconfig(dir.resolve("kubeconfig"))
        .pluginsDir(dir.resolve("no-plugins")).components(RunCommand.components())
        .execute(dir.resolve("run"), 6).out(line -> {
          TIMED.add(Instant.now() + " " + line);
          OUT.add(line);
        }).err(OUT::add).start();
    client = local.client();
    executor = local.executor().orElseThrow();
  }

  @AfterAll
  static void stop() {
    if (local != null) {
      local.close();
    }
  }

  @Test
  void aNodeKilledHalfwayRestartsOnceResumesFromItsCheckpointAndEndsAsAnUninterruptedRun() throws Exception {
    String example = Files.readString(TrainingTest.examples().resolve("torch-checkpoint.yaml"));
    String runtime = example.substring(0, example.indexOf("\n---\n"));
    try (InputStream in = new java.io.ByteArrayInputStream(runtime.getBytes(StandardCharsets.UTF_8))) {
      client.load(in).inNamespace(NS).create();
    }
    String trainJob = example.substring(example.indexOf("\n---\n") + 5);

    // a first run warms local up (its first training costs seconds more), and gives the final loss to expect
    create(trainJob, "warm-up", "none");
    awaitComplete("warm-up");
    double expectedLoss = finalLoss(log(pod("warm-up", 0, 0)));
    try {
      resumes(trainJob, expectedLoss);
    } catch (AssertionError | RuntimeException e) {
      printLogs("interrupted"); // what failed, if the training did on its own
      throw e;
    }
  }

  private void resumes(String trainJob, double expectedLoss) throws Exception {
    // the uninterrupted time is the mean of a run before the interrupted one and a run after it: this machine's
    // load drifts by seconds between runs
    Duration before = uninterrupted(trainJob, "uninterrupted-before", expectedLoss);
    String marker = UUID.randomUUID().toString();
    Instant created = Instant.now();
    create(trainJob, "interrupted", marker);
    // halfway: the report of step 35 of 60, five steps after the checkpoint of step 30
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(20)).until(() -> progress("interrupted") >= 58);
    ProcessHandle node1 = await().atMost(TIMEOUT).until(() -> trainer(marker, "1"), Optional::isPresent).get();
    Path checkpoint = dir.resolve("run").resolve(NS).resolve("pvc").resolve("checkpoint-interrupted")
        .resolve("checkpoint.pt");
    int step = lastCheckpointStep(log(pod("interrupted", 0, 0)));
    Instant killed = Instant.now();
    Duration workLost = Duration.between(Files.getLastModifiedTime(checkpoint).toInstant(), killed);
    node1.destroyForcibly();
    TIMED.add(Instant.now() + " (test) interrupted: node 1 killed, checkpoint of step " + step + " written "
        + workLost.toMillis() + " ms before");
    Duration interrupted = Duration.between(created, awaitComplete("interrupted"));
    Duration uninterrupted = before.plus(uninterrupted(trainJob, "uninterrupted-after", expectedLoss)).dividedBy(2);

    // restarted once, and said so
    TrainJob done = client.resources(TrainJob.class).inNamespace(NS).withName("interrupted").get();
    assertThat(done.getMetadata().getAnnotations()).containsEntry("kftrainer.io/restarts", "1");
    assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .filteredOn(e -> "interrupted".equals(e.getInvolvedObject().getName())
            && "TrainJob".equals(e.getInvolvedObject().getKind()) && "Restarting".equals(e.getReason()))
        .singleElement().satisfies(e -> assertThat(e.getMessage())
            .matches("restart 1/3 after pod default/interrupted-node-0-1-\\w+ on \\S+ failed: exit code 137"));
    int restartLine = indexOf(line -> line.startsWith("trainjob default/interrupted: restart 1/3 after "
        + "interrupted-node-0-1-"));
    assertThat(restartLine).isNotNegative();

    // resumed from its last checkpoint, which its log names
    String resumed = log(pod("interrupted", 0, 1));
    assertThat(step).isGreaterThanOrEqualTo(30);
    assertThat(resumed).contains("restart attempt 1: resuming from the checkpoint of step " + step)
        .doesNotContain("step " + step + ":");

    // the same training: the final loss of an uninterrupted run with the same seed
    double loss = finalLoss(resumed);
    assertThat(loss).isCloseTo(expectedLoss, org.assertj.core.data.Percentage.withPercentage(1));

    // the progress bar goes on from the checkpoint, with an estimate, and never restarts from nothing
    List<String> after = OUT.subList(restartLine, OUT.size()).stream()
        .filter(l -> l.startsWith("trainjob default/interrupted: ") && l.matches(".*: \\d+% .*")).toList();
    assertThat(after).first().satisfies(l -> assertThat(percent(l)).isGreaterThanOrEqualTo(100 * step / 60))
        .satisfies(l -> assertThat(l).contains(" s left)"));
    assertThat(after).last().satisfies(l -> assertThat(percent(l)).isEqualTo(100));

    TIMED.stream().filter(l -> l.contains("interrupted")).forEach(System.out::println);
    // a restart starts the training again: its pods, torch in each process, the rendezvous. On a machine so loaded
    // that a training's start (measured in the uninterrupted runs, beside this one) takes longer than the allowance
    // leaves for it, the allowance is that start plus local's own part, whose bound does not grow
    Duration start = startOfTraining("uninterrupted-before").plus(startOfTraining("uninterrupted-after")).dividedBy(2);
    Duration allowance = max(RESTART_ALLOWANCE, start.plus(RESTART_MACHINERY));
    Duration machinery = Duration.between(killed, TIMED.stream().filter(l -> l.contains(" pod default/interrupted-")
        && l.endsWith(": Running")).map(l -> Instant.parse(l.substring(0, l.indexOf(' '))))
        .filter(t -> t.isAfter(killed)).max(Comparator.naturalOrder()).orElseThrow());
    System.out.printf("uninterrupted (mean of two) %d ms, interrupted %d ms, work since the checkpoint %d ms, kill to the new "
        + "pods running %d ms, a training's start (create to its first step, mean of the uninterrupted runs) %d ms%n",
        uninterrupted.toMillis(), interrupted.toMillis(), workLost.toMillis(), machinery.toMillis(), start.toMillis());
    assertThat(machinery).isLessThanOrEqualTo(RESTART_MACHINERY);
    assertThat(interrupted).isLessThanOrEqualTo(uninterrupted.plus(workLost).plus(allowance));
  }

  /** Runs the example uninterrupted as {@code name}: its time to {@code Complete}; its loss is the one expected. */
  private static Duration uninterrupted(String trainJob, String name, double expectedLoss) throws IOException {
    Instant created = Instant.now();
    create(trainJob, name, "none");
    Duration took = Duration.between(created, awaitComplete(name));
    assertThat(finalLoss(log(pod(name, 0, 0)))).isEqualTo(expectedLoss);
    return took;
  }

  /** The logs of every pod of {@code trainJob}, from the run directory, which keeps those of deleted pods. */
  private static void printLogs(String trainJob) throws IOException {
    try (var pods = Files.list(dir.resolve("run").resolve(NS).resolve("pods"))) {
      for (Path pod : pods.filter(p -> p.getFileName().toString().startsWith(trainJob + "-")).sorted().toList()) {
        Path log = pod.resolve("logs").resolve("node.log");
        if (Files.exists(log)) {
          System.out.println("--- " + pod.getFileName() + "\n" + Files.readString(log));
        }
      }
    }
  }

  /**
   * From the TrainJob's creation to its first training step, from local's lines: the first two progress reports
   * give the time per percent, which, taken back from the first report, gives when step 0 began.
   */
  private static Duration startOfTraining(String name) {
    String prefix = "trainjob default/" + name + ": ";
    List<String> lines = TIMED.stream().filter(l -> l.substring(l.indexOf(' ') + 1).startsWith(prefix)).toList();
    Instant created = lines.stream().filter(l -> l.contains(prefix + "created ")).map(CheckpointResumeTest::time)
        .findFirst().orElseThrow(() -> new AssertionError("no creation of " + name + " in " + lines));
    List<String> reports = lines.stream().filter(l -> l.matches(".*: \\d+% .*")).limit(2).toList();
    assertThat(reports).as("the first two progress reports of %s", name).hasSize(2);
    Duration between = Duration.between(time(reports.get(0)), time(reports.get(1)));
    Duration toFirst = between.multipliedBy(percent(reports.get(0)))
        .dividedBy(percent(reports.get(1)) - percent(reports.get(0)));
    return Duration.between(created, time(reports.get(0))).minus(toFirst);
  }

  private static Instant time(String timedLine) {
    return Instant.parse(timedLine.substring(0, timedLine.indexOf(' ')));
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static void create(String trainJob, String name, String marker) throws IOException {
    String yaml = trainJob.replace("metadata:\n  name: torch-checkpoint\n", "metadata:\n  name: " + name + "\n")
        .replace("      - {name: SEED, value: \"7\"}", "      - {name: SEED, value: \"7\"}\n"
            + "      - {name: CHECKPOINT_TEST_RUN, value: \"" + marker + "\"}");
    try (InputStream in = new java.io.ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))) {
      client.load(in).inNamespace(NS).create();
    }
  }

  private static Instant awaitComplete(String name) {
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(20)).until(() -> {
      TrainJob trainJob = client.resources(TrainJob.class).inNamespace(NS).withName(name).get();
      var conditions = trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null ? List.<
          io.fabric8.kubernetes.api.model.Condition>of() : trainJob.getStatus().getConditions();
      conditions.stream().filter(c -> "Failed".equals(c.getType()) && "True".equals(c.getStatus())).findFirst()
          .ifPresent(c -> {
            throw new AssertionError(name + " failed: " + c.getMessage());
          });
      return conditions.stream().anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()));
    });
    return Instant.now();
  }

  private static int progress(String name) {
    TrainJob trainJob = client.resources(TrainJob.class).inNamespace(NS).withName(name).get();
    TrainerStatus status = trainJob == null || trainJob.getStatus() == null ? null
        : trainJob.getStatus().getTrainerStatus();
    return status == null || status.getProgressPercentage() == null ? 0 : status.getProgressPercentage();
  }

  /** The training process of node {@code rank} of the run marked {@code marker} (not its sandbox's). */
  private static Optional<ProcessHandle> trainer(String marker, String rank) {
    return ProcessHandle.allProcesses().filter(p -> {
      try {
        Path proc = Path.of("/proc", String.valueOf(p.pid()));
        String argv0 = Files.readString(proc.resolve("cmdline")).split("\0", 2)[0];
        String environ = Files.readString(proc.resolve("environ"));
        return argv0.endsWith("python3") && environ.contains("\0CHECKPOINT_TEST_RUN=" + marker + "\0")
            && environ.contains("\0PET_NODE_RANK=" + rank + "\0");
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }).findFirst();
  }

  private static int indexOf(java.util.function.Predicate<String> line) {
    for (int i = 0; i < OUT.size(); i++) {
      if (line.test(OUT.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private static int percent(String line) {
    Matcher m = Pattern.compile(": (\\d+)% ").matcher(line);
    assertThat(m.find()).as(line).isTrue();
    return Integer.parseInt(m.group(1));
  }

  private static double finalLoss(String log) {
    Matcher m = Pattern.compile("final loss (\\d+\\.\\d+)").matcher(log);
    assertThat(m.find()).as(log).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private static int lastCheckpointStep(String log) {
    Matcher m = Pattern.compile("step (\\d+): loss \\S+, checkpoint written").matcher(log);
    int step = 0;
    while (m.find()) {
      step = Integer.parseInt(m.group(1));
    }
    return step;
  }

  /** The pod of node {@code index} (its completion index) in restart attempt {@code attempt}. */
  private static String pod(String trainJob, int index, int attempt) {
    return client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", trainJob)
        .withLabel("jobset.sigs.k8s.io/restart-attempt", String.valueOf(attempt))
        .withLabel("batch.kubernetes.io/job-completion-index", String.valueOf(index)).list().getItems().stream()
        .map(Pod::getMetadata).max(Comparator.comparing(m -> m.getCreationTimestamp()))
        .orElseThrow(() -> new AssertionError("no pod " + index + " of attempt " + attempt + " of " + trainJob))
        .getName();
  }

  private static String log(String pod) {
    try (InputStream in = executor.openLog(NS, pod, "node", false, null).orElseThrow()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
