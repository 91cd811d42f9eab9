package io.kftrainer.lab.differential;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamedAuthInfoBuilder;
import io.fabric8.kubernetes.api.model.NamedClusterBuilder;
import io.fabric8.kubernetes.api.model.NamedContextBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One of the two API servers as its clients meet it: an admin kubeconfig, a fabric8 client made from it (the same
 * configuration for both servers), kubeconfigs of ServiceAccounts with a token from TokenRequest, and a way to make
 * the server forget its change history (for a watch from a resourceVersion that is too old).
 */
final class Side implements AutoCloseable {

  /** A token of ServiceAccount {@code namespace/name} from the server's TokenRequest API. */
  @FunctionalInterface
  interface TokenSource {
    String token(String namespace, String name);
  }

  /** Makes the server forget the changes before now, as its history allows. */
  @FunctionalInterface
  interface HistoryEraser {
    void forget(KubernetesClient admin) throws Exception;
  }

  static final String KUBE_APISERVER = "kube-apiserver";
  static final String EMBEDDED = "embedded";

  private final String name;
  private final Path dir;
  private final Path kubeconfig;
  private final Config config;
  private final KubernetesClient admin;
  private final TokenSource tokens;
  private final HistoryEraser history;
  private final List<KubernetesClient> clients = new ArrayList<>();

  Side(String name, Path dir, Path kubeconfig, TokenSource tokens, HistoryEraser history) throws IOException {
    this.name = name;
    this.dir = Files.createDirectories(dir);
    this.kubeconfig = kubeconfig;
    this.config = clientConfig(Config.fromKubeconfig(Files.readString(kubeconfig)));
    this.admin = new KubernetesClientBuilder().withConfig(config).build();
    this.tokens = tokens;
    this.history = history;
  }

  /** The same client settings on both servers: no retries (an error is observed as answered), HTTP watches. */
  private static Config clientConfig(Config fromKubeconfig) {
    return new ConfigBuilder(fromKubeconfig).withRequestRetryBackoffLimit(0).withOnlyHttpWatches(true)
        .withHttp2Disable(true).build();
  }

  String name() {
    return name;
  }

  /** A directory of this side's files (kubeconfigs, kubectl's cache). */
  Path dir() {
    return dir;
  }

  Path kubeconfig() {
    return kubeconfig;
  }

  KubernetesClient admin() {
    return admin;
  }

  /** A fabric8 client authenticated as ServiceAccount {@code namespace/account}; closed with this side. */
  KubernetesClient client(String namespace, String account) {
    Config as = new ConfigBuilder(config).withOauthToken(tokens.token(namespace, account)).withNamespace(namespace)
        .build();
    KubernetesClient client = new KubernetesClientBuilder().withConfig(as).build();
    clients.add(client);
    return client;
  }

  /** A kubeconfig of ServiceAccount {@code namespace/account}, its token from TokenRequest. */
  Path kubeconfig(String namespace, String account) {
    Path file = dir.resolve(namespace + "-" + account + ".kubeconfig");
    io.fabric8.kubernetes.api.model.Config kubeconfig = new io.fabric8.kubernetes.api.model.ConfigBuilder()
        .withApiVersion("v1").withKind("Config")
        .withClusters(new NamedClusterBuilder().withName(name).withNewCluster().withServer(config.getMasterUrl())
            .withCertificateAuthorityData(config.getCaCertData()).endCluster().build())
        .withUsers(new NamedAuthInfoBuilder().withName(account).withNewUser()
            .withToken(tokens.token(namespace, account)).endUser().build())
        .withContexts(new NamedContextBuilder().withName(name).withNewContext().withCluster(name).withUser(account)
            .withNamespace(namespace).endContext().build())
        .withCurrentContext(name).build();
    try {
      return Files.writeString(file, Serialization.asYaml(kubeconfig));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Makes the server forget the changes made so far: a watch from an earlier resourceVersion is then too old. */
  void forgetHistory() throws Exception {
    history.forget(admin);
  }

  /** Writes {@code changes} changes of a ConfigMap in {@code namespace}: history for {@link HistoryEraser}s. */
  static void write(KubernetesClient admin, String namespace, int changes) {
    for (int i = 0; i < changes; i++) {
      admin.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
          .withName("history").endMetadata().withData(Map.of("change", Integer.toString(i))).build())
          .serverSideApply();
    }
  }

  @Override
  public void close() {
    clients.forEach(KubernetesClient::close);
    admin.close();
  }

  @Override
  public String toString() {
    return name;
  }
}
