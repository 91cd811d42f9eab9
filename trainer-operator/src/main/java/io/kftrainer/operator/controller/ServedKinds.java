package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides at start-up which watched kinds the operator can watch: a custom resource must be served by the API
 * server (its CRD installed), which is asked through discovery, readable by every client without extra RBAC.
 * Kubernetes' own kinds (ConfigMap, LimitRange, RuntimeClass...) are taken as served.
 *
 * <p>A kind whose CRD is missing is skipped with a warning when every plugin watching it marked it optional (the
 * plugin then contributes nothing that needs it); otherwise start-up fails naming the CRD, rather than later
 * with an informer error.
 */
public final class ServedKinds {

  private static final Logger LOG = LoggerFactory.getLogger(ServedKinds.class);

  private ServedKinds() {
  }

  /**
   * The kinds to watch.
   *
   * @throws IllegalStateException naming every required kind that is not served
   */
  static List<WatchedKind> select(List<WatchedKind> kinds, KubernetesClient client) {
    return select(kinds, type -> isServed(type, client));
  }

  static List<WatchedKind> select(List<WatchedKind> kinds, Predicate<Class<? extends HasMetadata>> served) {
    List<WatchedKind> selected = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (WatchedKind kind : kinds) {
      if (served.test(kind.type())) {
        selected.add(kind);
      } else if (kind.optional()) {
        LOG.warn("Not watching {}: the resource is not served (CRD not installed); the plugins that use it do "
            + "without", kind.resourceName());
      } else {
        missing.add(kind.resourceName());
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("the API server does not serve " + missing
          + ": install their CustomResourceDefinitions before starting the operator");
    }
    return List.copyOf(selected);
  }

  /** Whether {@code client}'s API server serves {@code type} (a custom resource's CRD is installed). */
  public static boolean isServed(Class<? extends HasMetadata> type, KubernetesClient client) {
    if (!CustomResource.class.isAssignableFrom(type)) {
      return true;
    }
    var resources = client.getApiResources(HasMetadata.getApiVersion(type));
    String plural = HasMetadata.getPlural(type);
    return resources != null && resources.getResources() != null
        && resources.getResources().stream().anyMatch(r -> plural.equals(r.getName()));
  }
}
