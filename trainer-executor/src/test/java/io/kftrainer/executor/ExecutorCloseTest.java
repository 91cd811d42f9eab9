package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stopping the executor (local mode stops) ends every process it started. */
class ExecutorCloseTest {

  @TempDir
  Path runDir;

  @Test
  void closingTheExecutorLeavesNoProcessBehind() throws Exception {
    String child = "forever-" + java.util.UUID.randomUUID(); // found by name: pods have PID namespaces of their own
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
                      - {name: node, image: busybox, command: [bash, -c, 'bash -c "exec -a %s sleep 300" & wait']}
          """.formatted(child), JobSet.class)).create();
      await().atMost(Duration.ofSeconds(30)).until(() -> !ProcessLifecycleTest.processes(child).isEmpty());

      executor.close();

      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(ProcessLifecycleTest.processes(child)).isEmpty());
    }
  }
}
