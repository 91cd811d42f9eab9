package io.kftrainer.local;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.runner.ChildObjects;
import io.kftrainer.framework.spi.Watch;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects the operator made for a TrainJob: those of the kinds the plugins own ({@link Watch.Relation#OWNED})
 * and ConfigMaps (the runtime snapshot), that carry the TrainJob's name label and its controller reference. Custom
 * resources (JobSet, PodGroups) come first, in plugin order, then Kubernetes' own kinds, ConfigMaps last. Read from
 * the API server, off the admission path.
 */
final class TrainJobChildren {

  private static final Logger LOG = LoggerFactory.getLogger(TrainJobChildren.class);

  private final KubernetesClient client;
  private final List<Class<? extends HasMetadata>> kinds;

  TrainJobChildren(KubernetesClient client, List<Watch> watches) {
    this.client = Objects.requireNonNull(client, "client");
    Set<Class<? extends HasMetadata>> owned = new LinkedHashSet<>();
    List<Class<? extends HasMetadata>> ownedTypes = watches.stream()
        .filter(w -> w.relation() == Watch.Relation.OWNED).<Class<? extends HasMetadata>>map(Watch::type).toList();
    ownedTypes.stream().filter(CustomResource.class::isAssignableFrom).forEach(owned::add);
    ownedTypes.stream().filter(type -> type != ConfigMap.class).forEach(owned::add);
    owned.add(ConfigMap.class);
    this.kinds = List.copyOf(owned);
  }

  /** The TrainJob's children, by kind in the plugins' order, then by name; kinds not served are skipped. */
  List<HasMetadata> of(TrainJob trainJob) {
    String namespace = trainJob.getMetadata().getNamespace();
    String name = trainJob.getMetadata().getName();
    String uid = trainJob.getMetadata().getUid();
    List<HasMetadata> children = new ArrayList<>();
    for (Class<? extends HasMetadata> kind : kinds) {
      try {
        client.resources(kind).inNamespace(namespace).withLabel(ChildObjects.TRAINJOB_NAME_LABEL, name).list()
            .getItems().stream()
            .filter(child -> uid != null && ChildObjects.isControlledBy(child, uid))
            .sorted(java.util.Comparator.comparing(child -> child.getMetadata().getName()))
            .forEach(children::add);
      } catch (KubernetesClientException e) {
        LOG.debug("Cannot list {} in {}: {}", HasMetadata.getKind(kind), namespace, e.getMessage());
      }
    }
    return children;
  }

  /** {@code Kind name}, as progress lines show a child. */
  static String describe(HasMetadata child) {
    return child.getKind() + " " + child.getMetadata().getName();
  }
}
