package io.kftrainer.executor;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/** The executor on an embedded API server with JobSet's CRD, as the executor's tests drive it. */
final class ExecutorOnApiServer implements AutoCloseable {

  static final String NS = "default";

  private final EmbeddedApiServer server;
  private final KubernetesClient client;
  private final LocalExecutor executor;

  private ExecutorOnApiServer(EmbeddedApiServer server, KubernetesClient client, LocalExecutor executor) {
    this.server = server;
    this.client = client;
    this.executor = executor;
  }

  /** @param progress where the executor's progress lines go */
  static ExecutorOnApiServer start(Path runDir, Consumer<String> progress) throws IOException {
    EmbeddedApiServer server = EmbeddedApiServer.start();
    try (InputStream crd = ExecutorOnApiServer.class.getClassLoader()
        .getResourceAsStream("META-INF/fabric8/jobsets.jobset.x-k8s.io-v1.yml")) {
      server.installCrds(crd);
    }
    LocalExecutor executor = new LocalExecutor(server.newClient(), new LocalExecutor.Options(runDir, 8, progress))
        .start();
    return new ExecutorOnApiServer(server, server.newClient(), executor);
  }

  KubernetesClient client() {
    return client;
  }

  LocalExecutor executor() {
    return executor;
  }

  /** Creates the JobSet of {@code yaml} in {@value #NS}. */
  void create(String yaml) {
    client.resource(client.getKubernetesSerialization().unmarshal(yaml, JobSet.class)).inNamespace(NS).create();
  }

  /** The JobSet once its condition {@code type} is true. */
  JobSet awaitCondition(String name, String type, Duration timeout) {
    return await().atMost(timeout).until(() -> client.resources(JobSet.class).inNamespace(NS).withName(name).get(),
        js -> js.getStatus() != null && PodConditions.isTrue(js.getStatus().getConditions(), type));
  }

  @Override
  public void close() {
    executor.close();
    server.close();
  }
}
