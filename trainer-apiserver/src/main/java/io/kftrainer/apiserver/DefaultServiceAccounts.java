package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's ServiceAccounts controller, for this server: every namespace gets a ServiceAccount
 * {@value #NAME} soon after it is created (asynchronously, on this controller's thread, as in a cluster), so that
 * pods, which run as it unless they say otherwise, can request its tokens.
 */
final class DefaultServiceAccounts implements Consumer<Store.Event>, AutoCloseable {

  static final String NAME = "default";
  private static final Store.Kind NAMESPACES = new Store.Kind("", "namespaces");
  private static final Logger LOG = LoggerFactory.getLogger(DefaultServiceAccounts.class);

  private final ApiHandler api;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread thread = new Thread(r, "apiserver-serviceaccounts");
    thread.setDaemon(true);
    return thread;
  });

  DefaultServiceAccounts(ApiHandler api) {
    this.api = api;
  }

  @Override
  public void accept(Store.Event event) {
    if (event.type().equals("ADDED") && event.object().kind().equals(NAMESPACES) && !executor.isShutdown()) {
      String namespace = event.object().name();
      executor.execute(() -> create(namespace));
    }
  }

  private void create(String namespace) {
    ResourcePath path = ResourcePath.parse("/api/v1/namespaces/" + namespace + "/serviceaccounts");
    Target target = api.target(path);
    ObjectNode account = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "ServiceAccount");
    account.putObject("metadata").put("name", NAME).put("namespace", namespace);
    try {
      Response response = api.create(target, account);
      if (response.code() != 201 && response.code() != 409) {
        LOG.warn("cannot create ServiceAccount {}/{}: {}", namespace, NAME, response.code());
      }
    } catch (RuntimeException e) {
      LOG.warn("cannot create ServiceAccount {}/{}", namespace, NAME, e);
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
