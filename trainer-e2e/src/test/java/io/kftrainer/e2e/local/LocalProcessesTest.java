package io.kftrainer.e2e.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Kubectl;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code local} as a process, with the executor on: what a pod starts ends with {@code local} even when it is
 * killed with SIGKILL (bubblewrap's PID namespaces), and {@code kubectl logs} reads a large log whole and honours
 * its options.
 */
class LocalProcessesTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  @Test
  void sigkillOfLocalEndsEveryPodsProcessesDaemonsIncluded() {
    String token = "d" + UUID.randomUUID().toString().substring(0, 8);
    Path runDir = Locations.workDir().resolve("sigkill-run");
    LocalOperator local = LocalOperator.startExecuting("sigkill", List.of("--run-dir", runDir.toString()));
    try (local) {
      await().atMost(TIMEOUT).until(() -> local.logged("run as processes of this machine")); // the banner
      Assumptions.assumeTrue(local.logged("a PID namespace per container"),
          "bubblewrap cannot create PID namespaces here: local's fallback cannot outlive SIGKILL");
      String script = """
          setsid bash -c 'exec -a %1$s-setsid sleep 300' &
          ( bash -c 'exec -a %1$s-double-fork sleep 300' & )
          ( setsid bash -c 'exec -a %1$s-setsid-orphan sleep 300' & )
          exec -a %1$s-main sleep 300
          """.formatted(token);
      createPod(local.client(), local.createNamespace("sigkill"), "daemons", script);
      await().atMost(TIMEOUT).until(() -> processes(token).size() == 4);

      local.kill();

      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(processes(token)).isEmpty());
    } finally {
      processes(token).forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void kubectlLogsReadsALargeLogWholeAndHonoursLimitBytesTailAndTimestamps() throws IOException {
    Assumptions.assumeTrue(Kubectl.isInstalled(), "kubectl is not installed");
    Path runDir = Locations.workDir().resolve("logs-run");
    try (LocalOperator local = LocalOperator.startExecuting("logs", List.of("--run-dir", runDir.toString()))) {
      String namespace = local.createNamespace("logs");
      // 40 MB of lines and one line of 1 MB: kubectl logs used to return 8,192 bytes
      createPod(local.client(), namespace, "talker", "yes 'step 1: loss 0.5' | head -c 40000000; "
          + "head -c 1000000 /dev/zero | tr '\\0' x; echo; echo done");
      await().atMost(TIMEOUT).until(() -> "Succeeded".equals(phase(local.client(), namespace, "talker")));
      long size = Files.size(runDir.resolve(namespace).resolve("pods/talker/logs/talker.log"));
      Kubectl kubectl = local.kubectl();

      Command.Result whole = kubectl.run("logs", "-n", namespace, "talker");
      assertThat(whole.exitCode()).as(whole.stderr()).isZero();
      assertThat((long) whole.stdout().length()).isEqualTo(size);
      assertThat(whole.stdout()).endsWith("x\ndone\n");

      assertThat(kubectl.run("logs", "-n", namespace, "talker", "--limit-bytes=15").stdout())
          .isEqualTo("step 1: loss 0.");
      assertThat(kubectl.run("logs", "-n", namespace, "talker", "--tail=1").stdout()).isEqualTo("done\n");
      assertThat(kubectl.run("logs", "-n", namespace, "talker", "--tail=1", "--timestamps", "--since=1h").stdout())
          .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z done\n");
      Command.Result previous = kubectl.run("logs", "-n", namespace, "talker", "--previous");
      assertThat(previous.exitCode()).isNotZero();
      assertThat(previous.stderr()).contains("previous terminated container \"talker\" in pod \"talker\" not found");
    }
  }

  private static void createPod(KubernetesClient client, String namespace, String name, String script) {
    Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withNewSpec().withRestartPolicy("Never").addNewContainer().withName(name).withImage("busybox")
        .withCommand("bash", "-c", script).endContainer().endSpec().build();
    client.pods().inNamespace(namespace).resource(pod).create();
  }

  private static String phase(KubernetesClient client, String namespace, String name) {
    Pod pod = client.pods().inNamespace(namespace).withName(name).get();
    return pod == null || pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  /** The live processes whose {@code argv[0]} starts with {@code prefix} (pods' pids are their namespace's). */
  private static List<ProcessHandle> processes(String prefix) {
    List<ProcessHandle> found = new ArrayList<>();
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        String pid = entry.getFileName().toString();
        if (!pid.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(entry.resolve("stat"));
          if (Files.readString(entry.resolve("cmdline")).startsWith(prefix)
              && !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")) {
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
}
