package io.kftrainer.local;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The garbage collector's part for TrainJobs, which the embedded server does not have: when a TrainJob is deleted,
 * its children ({@link TrainJobChildren}) are deleted too, as Kubernetes does for objects whose controller owner is
 * gone (background propagation). Without it a deleted TrainJob's JobSet would stay, and a new TrainJob of the same
 * name would find a JobSet it does not own.
 */
final class ChildCollector implements ResourceEventHandler<TrainJob> {

  private static final Logger LOG = LoggerFactory.getLogger(ChildCollector.class);

  private final KubernetesClient client;
  private final TrainJobChildren children;

  ChildCollector(KubernetesClient client, TrainJobChildren children) {
    this.client = Objects.requireNonNull(client, "client");
    this.children = Objects.requireNonNull(children, "children");
  }

  @Override
  public void onAdd(TrainJob trainJob) {
  }

  @Override
  public void onUpdate(TrainJob oldTrainJob, TrainJob trainJob) {
  }

  @Override
  public void onDelete(TrainJob trainJob, boolean deletedFinalStateUnknown) {
    for (HasMetadata child : children.of(trainJob)) {
      try {
        client.resource(child).delete();
        LOG.debug("Deleted {} {}/{} with its TrainJob", child.getKind(), child.getMetadata().getNamespace(),
            child.getMetadata().getName());
      } catch (KubernetesClientException e) {
        LOG.warn("Cannot delete {} {}/{} of the deleted TrainJob {}: {}", child.getKind(),
            child.getMetadata().getNamespace(), child.getMetadata().getName(), trainJob.getMetadata().getName(),
            e.getMessage());
      }
    }
  }
}
