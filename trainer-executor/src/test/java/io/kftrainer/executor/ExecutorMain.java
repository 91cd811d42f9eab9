package io.kftrainer.executor;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The executor in a JVM of its own, for {@link ProcessLifecycleTest} to SIGKILL: an API server, the executor, and one
 * pod running {@code bash -c SCRIPT}. Arguments: the run directory and the script.
 */
public final class ExecutorMain {

  private ExecutorMain() {
  }

  public static void main(String[] args) throws Exception {
    EmbeddedApiServer server = EmbeddedApiServer.start();
    try (InputStream crd = ExecutorMain.class.getClassLoader()
        .getResourceAsStream("META-INF/fabric8/jobsets.jobset.x-k8s.io-v1.yml")) {
      server.installCrds(crd);
    }
    KubernetesClient client = server.newClient();
    new LocalExecutor(server.newClient(), new LocalExecutor.Options(Path.of(args[0]), 2, System.out::println,
        LocalExecutor.Isolation.PID_NAMESPACE)).start();
    JobSet jobSet = client.getKubernetesSerialization().unmarshal("""
        apiVersion: jobset.x-k8s.io/v1alpha2
        kind: JobSet
        metadata: {name: daemons, namespace: default}
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - {name: node, image: busybox, command: [bash, -c]}
        """, JobSet.class);
    jobSet.getSpec().getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0)
        .setArgs(List.of(args[1]));
    client.resource(jobSet).create();
    Thread.currentThread().join(); // until killed
  }
}
