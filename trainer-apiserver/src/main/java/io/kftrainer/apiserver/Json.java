package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** The JSON mappers of this module. */
final class Json {

  /** Configured by fabric8 for its model classes (and fine for plain trees). */
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final KubernetesSerialization KUBERNETES = new KubernetesSerialization(MAPPER, true);

  private Json() {
  }
}
