package io.kftrainer.apiserver;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The Services local mode can reach, and where: what kube-proxy and the Service's endpoints do in a cluster. Local
 * mode routes the operator's webhook Service ({@code kubeflow-trainer-controller-manager} in the operator namespace,
 * port 443) to the webhook server on 127.0.0.1; any other Service is not found.
 */
public final class ServiceRoutes {

  private record Key(String namespace, String name, int port) {
  }

  private final Map<Key, Supplier<InetSocketAddress>> routes = new ConcurrentHashMap<>();

  /** Routes {@code namespace/name:port} to the address {@code target} gives when a call is made. */
  public ServiceRoutes route(String namespace, String name, int port, Supplier<InetSocketAddress> target) {
    routes.put(new Key(namespace, name, port), Objects.requireNonNull(target, "target"));
    return this;
  }

  Optional<InetSocketAddress> resolve(String namespace, String name, int port) {
    Supplier<InetSocketAddress> target = routes.get(new Key(namespace, name, port));
    return target == null ? Optional.empty() : Optional.ofNullable(target.get());
  }
}
