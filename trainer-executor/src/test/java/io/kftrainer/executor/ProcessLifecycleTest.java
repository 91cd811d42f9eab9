package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A container is all its descendants, as a cgroup is: the processes a pod starts, daemons included, end when its
 * main process ends or is killed, when the pod is deleted, and when the executor's JVM is killed; a Job's
 * replacement pod starts only once they are gone. Each case runs with bubblewrap's PID namespaces (skipped where
 * bwrap cannot run) and with the process-group fallback, whose documented gaps the cases leave out.
 */
class ProcessLifecycleTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String NS = "default";

  @TempDir
  Path dir;

  private final String token = "t" + UUID.randomUUID().toString().substring(0, 8);
  private EmbeddedApiServer server;
  private KubernetesClient client;
  private LocalExecutor executor;

  private void start(LocalExecutor.Isolation isolation) throws IOException {
    if (isolation == LocalExecutor.Isolation.PID_NAMESPACE) {
      Assumptions.assumeTrue(Containment.detect() instanceof Containment.PidNamespace,
          "bubblewrap cannot create PID namespaces here");
    }
    server = EmbeddedApiServer.start();
    try (InputStream crd = getClass().getClassLoader()
        .getResourceAsStream("META-INF/fabric8/jobsets.jobset.x-k8s.io-v1.yml")) {
      server.installCrds(crd);
    }
    client = server.newClient();
    executor = new LocalExecutor(server.newClient(), new LocalExecutor.Options(dir.resolve("run"), 4, line -> { },
        isolation)).start();
  }

  @AfterEach
  void stop() {
    if (executor != null) {
      executor.close();
    }
    if (server != null) {
      server.close();
    }
    processes(token).forEach(ProcessHandle::destroyForcibly);
  }

  @ParameterizedTest
  @EnumSource(value = LocalExecutor.Isolation.class, names = {"PID_NAMESPACE", "PROCESS_GROUP"})
  void aKilledRankTakesItsChildrenAndTheReplacementStartsOnlyOnceTheyAreGone(LocalExecutor.Isolation isolation)
      throws Exception {
    start(isolation);
    Path lock = dir.resolve("rank.lock");
    Path started = dir.resolve("started");
    Path result = dir.resolve("result");
    // the first pod's children hold a lock; its replacement says whether the lock was free when it started
    createJobSet("ranks", 1, """
        if [ -f %2$s ]; then
          if flock -n %1$s true; then echo free > %3$s; else echo held > %3$s; fi
          exit 0
        fi
        flock %1$s bash -c 'exec -a %4$s-rank sleep 300' &
        while flock -n %1$s true; do sleep 0.05; done
        touch %2$s
        exec -a %4$s-main sleep 300
        """.formatted(lock, started, result, token));
    // the lock is held from before flock's child has exec'd into the rank: the rank is there once /proc names it
    await().atMost(TIMEOUT).until(() -> Files.exists(started) && !processes(token + "-main").isEmpty()
        && !processes(token + "-rank").isEmpty());

    processes(token + "-main").forEach(ProcessHandle::destroyForcibly); // SIGKILL of the rank's main process

    await().atMost(TIMEOUT).until(() -> Files.exists(result) && !Files.readString(result).isBlank());
    assertThat(Files.readString(result).trim()).as("the old pod's lock when its replacement started")
        .isEqualTo("free");
    assertThat(processes(token)).isEmpty();
    assertThat(exitCodes("ranks")).as("the killed pod's exit code").contains(137);
  }

  @ParameterizedTest
  @EnumSource(value = LocalExecutor.Isolation.class, names = {"PID_NAMESPACE", "PROCESS_GROUP"})
  void deletingAPodEndsItsDaemons(LocalExecutor.Isolation isolation) throws Exception {
    start(isolation);
    Path started = dir.resolve("started");
    createJobSet("daemons", 0, daemons(started) + "exec -a " + token + "-main sleep 300\n");
    await().atMost(TIMEOUT).until(() -> Files.exists(started) && processes(token).size() == 4);

    client.resources(JobSet.class).inNamespace(NS).withName("daemons").delete();

    List<String> left = isolation == LocalExecutor.Isolation.PID_NAMESPACE ? List.of()
        // the fallback's gap: a daemon that called setsid and whose parent has exited (docs/local.md)
        : List.of(token + "-setsid-orphan");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(names(processes(token))).isEqualTo(left));
  }

  @ParameterizedTest
  @EnumSource(value = LocalExecutor.Isolation.class, names = {"PID_NAMESPACE", "PROCESS_GROUP"})
  void whatTheMainProcessLeavesBehindEndsBeforeThePodIsReportedDone(LocalExecutor.Isolation isolation)
      throws Exception {
    start(isolation);
    Path started = dir.resolve("started");
    createJobSet("leaver", 0, daemons(started) + "exit 0\n");

    JobSet done = await().atMost(TIMEOUT).until(() -> client.resources(JobSet.class).inNamespace(NS)
        .withName("leaver").get(), js -> js.getStatus() != null && PodConditions.isTrue(js.getStatus()
        .getConditions(), "Completed"));

    assertThat(done).isNotNull();
    assertThat(Files.exists(started)).isTrue();
    List<String> left = names(processes(token));
    if (isolation == LocalExecutor.Isolation.PID_NAMESPACE) {
      assertThat(left).isEmpty();
    } else {
      // the fallback ends what stays in the main process's group and session, not what left it with setsid
      assertThat(left).doesNotContain(token + "-double-fork");
    }
  }

  @Test
  void sigkillOfTheExecutorsJvmEndsEveryPodsProcesses() throws Exception {
    Assumptions.assumeTrue(Containment.detect() instanceof Containment.PidNamespace,
        "bubblewrap cannot create PID namespaces here");
    Path started = dir.resolve("started");
    String java = ProcessHandle.current().info().command().orElse("java");
    Process local = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        ExecutorMain.class.getName(), dir.resolve("run").toString(),
        daemons(started) + "exec -a " + token + "-main sleep 300\n")
        .redirectErrorStream(true).redirectOutput(dir.resolve("executor.out").toFile()).start();
    try {
      // a JVM of its own, an API server and an executor to start: slow on a loaded machine
      await().atMost(TIMEOUT.multipliedBy(3)).until(() -> Files.exists(started) && processes(token).size() == 4);

      local.destroyForcibly(); // SIGKILL: no shutdown hook, no close()
      local.waitFor();

      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(names(processes(token))).isEmpty());
    } finally {
      local.destroyForcibly();
    }
  }

  /**
   * The exit codes of a JobSet's terminated containers. A pod the kubelet has just started may have no status yet
   * (its process runs before the first status write), as on a cluster.
   */
  private List<Integer> exitCodes(String jobSet) {
    return client.pods().inNamespace(NS).withLabel("jobset.sigs.k8s.io/jobset-name", jobSet).list().getItems()
        .stream().filter(p -> p.getStatus() != null).flatMap(p -> p.getStatus().getContainerStatuses().stream())
        .filter(s -> s.getState() != null && s.getState().getTerminated() != null)
        .map(s -> s.getState().getTerminated().getExitCode()).toList();
  }

  /** A script that starts three kinds of daemons, waits until they run, then touches {@code started}. */
  private String daemons(Path started) {
    return """
        setsid bash -c 'exec -a %1$s-setsid sleep 300' &
        ( bash -c 'exec -a %1$s-double-fork sleep 300' & )
        ( setsid bash -c 'exec -a %1$s-setsid-orphan sleep 300' & )
        while [ "$(ps -eo args | grep -c '^%1$s-')" -lt 3 ]; do sleep 0.05; done
        touch %2$s
        """.formatted(token, started);
  }

  private void createJobSet(String name, int backoffLimit, String script) {
    JobSet jobSet = client.getKubernetesSerialization().unmarshal("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: %s, namespace: default}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                backoffLimit: %d
                template:
                  spec:
                    restartPolicy: Never
                    containers:
                    - {name: node, image: busybox, command: [bash, -c]}
        """.formatted(name, backoffLimit), JobSet.class);
    jobSet.getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0)
        .setArgs(List.of(script));
    client.resource(jobSet).create();
  }

  /** The live processes whose {@code argv[0]} starts with {@code prefix}, found in {@code /proc}. */
  static List<ProcessHandle> processes(String prefix) {
    List<ProcessHandle> found = new ArrayList<>();
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String pid = entry.getFileName().toString();
        if (!pid.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String argv0 = Files.readString(entry.resolve("cmdline")).split("\0", 2)[0];
          String state = Files.readString(entry.resolve("stat"));
          boolean zombie = state.substring(state.lastIndexOf(')') + 2).startsWith("Z");
          if (argv0.startsWith(prefix) && !zombie) {
            ProcessHandle.of(Long.parseLong(pid)).ifPresent(found::add);
          }
        } catch (IOException | RuntimeException e) {
          // gone while we looked
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return found;
  }

  private static List<String> names(List<ProcessHandle> processes) {
    return processes.stream().map(ProcessLifecycleTest::argv0).sorted().toList();
  }

  private static String argv0(ProcessHandle process) {
    try {
      return Files.readString(Path.of("/proc", String.valueOf(process.pid()), "cmdline")).split("\0", 2)[0];
    } catch (IOException e) {
      return "(gone)";
    }
  }
}
