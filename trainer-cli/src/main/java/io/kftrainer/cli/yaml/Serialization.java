package io.kftrainer.cli.yaml;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The one fabric8 serialization the operator's command-line tools use for Kubernetes objects, so that objects read
 * and objects written go through the same model annotations as the operator's client. Stateless and
 * thread-safe once built.
 */
public final class Serialization {

  private static final KubernetesSerialization KUBERNETES = new KubernetesSerialization();

  private Serialization() {
  }

  public static KubernetesSerialization kubernetes() {
    return KUBERNETES;
  }
}
