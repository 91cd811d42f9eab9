package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stopping the executor (local mode stops) ends every process group it started. */
class ExecutorCloseTest {

  @TempDir
  Path runDir;

  @Test
  void closingTheExecutorLeavesNoProcessBehind() throws Exception {
    Path pidFile = runDir.resolve("child.pid");
    try (EmbeddedApiServer server = EmbeddedApiServer.start()) {
      try (InputStream crd = getClass().getClassLoader()
          .getResourceAsStream("META-INF/fabric8/jobsets.jobset.x-k8s.io-v1.yml")) {
        server.installCrds(crd);
      }
      KubernetesClient client = server.newClient();
      LocalExecutor executor = new LocalExecutor(server.newClient(),
          new LocalExecutor.Options(runDir.resolve("run"), 2, line -> { })).start();
      client.resource(client.getKubernetesSerialization().unmarshal("""
          apiVersion: jobset.x-k8s.io/v1alpha2
          kind: JobSet
          metadata: {name: forever, namespace: default}
          spec:
            replicatedJobs:
            - name: node
              template:
                spec:
                  template:
                    spec:
                      containers:
                      - {name: node, image: busybox, command: [sh, -c, 'sleep 300 & echo $! > %s; wait']}
          """.formatted(pidFile), JobSet.class)).create();
      await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(pidFile)
          && !Files.readString(pidFile).isBlank());
      long child = Long.parseLong(Files.readString(pidFile).trim());

      executor.close();

      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(ProcessHandle.of(child).filter(ProcessHandle::isAlive)).isEmpty());
    }
  }
}
