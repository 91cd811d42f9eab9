package io.kftrainer.local;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.apiserver.ServiceRoutes;
import io.kftrainer.apiserver.WebhookDispatcher;
import io.kftrainer.operator.command.VersionProvider;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EmbeddedApiServer} made into a cluster with the trainer installed, what {@code local} and
 * {@code apiserver} share: the CRDs, the namespaces {@code default} and the operator's, the operator's version for
 * the Kubeflow SDK (the ConfigMap {@code kubeflow-trainer-public} and the Role that lets every user read it),
 * upstream's user ClusterRoles ({@code manifests/user-roles}), the webhook configurations
 * with their Service routed to the operator's webhook server ({@link ServiceRoutes}), the
 * {@link WebhookDispatcher} as the server's admission chain, then the shipped runtimes (which go through the
 * webhooks' rules; the runtime webhooks are not callable before the operator publishes its CA, and their
 * {@code failurePolicy} decides).
 *
 * @param crds the CRDs installed
 * @param webhookConfigurations the webhook configurations installed, callable once they have a {@code caBundle}
 * @param runtimes the ClusterTrainingRuntimes installed
 * @param dispatcher the admission chain; closed with the cluster
 */
public record EmbeddedCluster(List<String> crds, List<String> webhookConfigurations, List<String> runtimes,
    WebhookDispatcher dispatcher) implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);
  /** The port of the operator's webhook Service, as in {@code manifests/base}. */
  static final int SERVICE_PORT = 443;
  /** The namespaces kube-apiserver creates at start-up. */
  static final String[] SYSTEM_NAMESPACES = {"default", "kube-system", "kube-public", "kube-node-lease"};

  /**
   * Installs the trainer into {@code server} through {@code client}; the webhook Service
   * {@code operatorNamespace/serviceName} is served by {@code webhookServer}'s address at the time of each call.
   */
  public static EmbeddedCluster install(EmbeddedApiServer server, KubernetesClient client, String operatorNamespace,
      String serviceName, Supplier<InetSocketAddress> webhookServer) {
    ClusterBootstrap bootstrap = new ClusterBootstrap(client, EmbeddedCluster.class.getClassLoader());
    long started = System.nanoTime();
    List<String> crds = bootstrap.installCrds();
    LOG.info("Installed {} CRDs ({} ms)", crds.size(), millisSince(started));
    bootstrap.createNamespaces("default", operatorNamespace);
    bootstrap.installPublicVersion(operatorNamespace, publicVersion());
    bootstrap.installUserRoles();
    List<String> webhookConfigurations = bootstrap.installWebhookConfigurations(operatorNamespace, serviceName);
    LOG.info("Installed the namespaces and webhook configurations ({} ms)", millisSince(started));
    ServiceRoutes routes = new ServiceRoutes().route(operatorNamespace, serviceName, SERVICE_PORT, webhookServer);
    WebhookDispatcher dispatcher = new WebhookDispatcher(client, routes);
    dispatcher.start(server);
    LOG.info("Started the admission chain ({} ms)", millisSince(started));
    try {
      List<String> runtimes = bootstrap.installRuntimes();
      LOG.info("Installed {} ClusterTrainingRuntimes ({} ms)", runtimes.size(), millisSince(started));
      return new EmbeddedCluster(crds, webhookConfigurations, runtimes, dispatcher);
    } catch (RuntimeException e) {
      dispatcher.close();
      throw e;
    }
  }

  /**
   * A cluster as a fresh kube-apiserver starts one, with nothing of the trainer installed: the system namespaces,
   * and the admission chain, with the webhook Service {@code operatorNamespace/serviceName} routed to
   * {@code webhookServer} (kube-proxy's part), for whatever webhook configurations an installer (helm, kubectl)
   * creates later.
   */
  public static EmbeddedCluster empty(EmbeddedApiServer server, KubernetesClient client, String operatorNamespace,
      String serviceName, Supplier<InetSocketAddress> webhookServer) {
    new ClusterBootstrap(client, EmbeddedCluster.class.getClassLoader()).createNamespaces(SYSTEM_NAMESPACES);
    ServiceRoutes routes = new ServiceRoutes().route(operatorNamespace, serviceName, SERVICE_PORT, webhookServer);
    WebhookDispatcher dispatcher = new WebhookDispatcher(client, routes);
    dispatcher.start(server);
    return new EmbeddedCluster(List.of(), List.of(), List.of(), dispatcher);
  }

  /**
   * The version {@code kubeflow-trainer-public} names, as manifests/base and the chart do: {@code v} and the
   * release of the project version ({@code v0.1.0} for 0.1.0-SNAPSHOT).
   */
  static String publicVersion() {
    return "v" + VersionProvider.version().replaceFirst("-SNAPSHOT$", "");
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  @Override
  public void close() {
    dispatcher.close();
  }
}
