package io.kftrainer.operator.controller;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The YAML of runtime snapshots ({@link RuntimeSnapshots}), both ways, remembered by content: every TrainJob of a
 * runtime snapshots the same runtime, and every reconcile reads its TrainJob's snapshot again, while YAML is ten
 * times slower to write and read than JSON (it was half of a reconcile's CPU). Writing remembers the YAML of a
 * runtime's JSON; reading remembers the JSON of a snapshot's YAML, which the caller parses into a fresh object each
 * time (callers may change what they get). At most {@value #ENTRIES} of each, the most recently used: a few per
 * runtime in use.
 */
final class RuntimeYaml {

  static final int ENTRIES = 64;

  private final KubernetesSerialization serialization;
  private final Memo yamlByJson = new Memo(ENTRIES);
  private final Memo jsonByYaml = new Memo(ENTRIES);

  RuntimeYaml(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /** {@code runtime} as YAML, as {@link KubernetesSerialization#asYaml} writes it. */
  String write(HasMetadata runtime) {
    return yamlByJson.get(serialization.asJson(runtime), json -> serialization.asYaml(runtime));
  }

  /**
   * The JSON of the object {@code yaml} holds, for {@link KubernetesSerialization#unmarshal}.
   *
   * @throws RuntimeException if {@code yaml} is not YAML (not remembered)
   */
  String jsonOf(String yaml) {
    return jsonByYaml.get(yaml, text -> serialization.asJson(serialization.unmarshal(text, JsonNode.class)));
  }
}
