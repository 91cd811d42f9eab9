package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks built objects as children of their TrainJob, the same way for every plugin: the TrainJob's namespace, a
 * controller owner reference (garbage collection, and event mapping) and the {@value #TRAINJOB_NAME_LABEL} label
 * (so that the operator can cache only its own ConfigMaps, Secrets and PodGroups).
 */
public final class ChildObjects {

  /** Carried by every object the operator creates; its value is the TrainJob's name. */
  public static final String TRAINJOB_NAME_LABEL = "trainer.kubeflow.org/trainjob-name";

  private ChildObjects() {
  }

  public static void adopt(TrainJob trainJob, HasMetadata child) {
    ObjectMeta meta = child.getMetadata();
    if (meta == null) {
      meta = new ObjectMeta();
      child.setMetadata(meta);
    }
    meta.setNamespace(trainJob.getMetadata().getNamespace());
    Map<String, String> labels = meta.getLabels() == null ? new LinkedHashMap<>() : meta.getLabels();
    labels.put(TRAINJOB_NAME_LABEL, trainJob.getMetadata().getName());
    meta.setLabels(labels);
    meta.setOwnerReferences(List.of(controllerReference(trainJob)));
  }

  public static OwnerReference controllerReference(TrainJob trainJob) {
    OwnerReference reference = new OwnerReference();
    reference.setApiVersion(trainJob.getApiVersion());
    reference.setKind(trainJob.getKind());
    reference.setName(trainJob.getMetadata().getName());
    reference.setUid(trainJob.getMetadata().getUid());
    reference.setController(true);
    reference.setBlockOwnerDeletion(true);
    return reference;
  }

  /** Whether {@code object} is controlled by the TrainJob with this uid. */
  public static boolean isControlledBy(HasMetadata object, String trainJobUid) {
    List<OwnerReference> references = object.getMetadata().getOwnerReferences();
    return references != null && references.stream()
        .anyMatch(r -> Boolean.TRUE.equals(r.getController()) && trainJobUid.equals(r.getUid()));
  }
}
