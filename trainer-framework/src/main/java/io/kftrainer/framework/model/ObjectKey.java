package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** Namespace and name of an object; {@code namespace} is null for cluster-scoped objects. */
public record ObjectKey(String namespace, String name) {

  public static ObjectKey of(HasMetadata object) {
    return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  @Override
  public String toString() {
    return namespace == null ? name : namespace + "/" + name;
  }
}
