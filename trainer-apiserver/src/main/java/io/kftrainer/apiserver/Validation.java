package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.function.Supplier;

/** Schema-based defaulting, pruning and validation of custom resources (placeholder: accepts everything). */
final class Validation {

  private final Supplier<List<JsonNode>> crds;

  Validation(Supplier<List<JsonNode>> crds) {
    this.crds = crds;
  }

  void invalidate() {
  }

  /** Prunes unknown fields and applies defaults in place. */
  void prepare(ApiHandler.Target target, ObjectNode object) {
  }

  /** The field errors of {@code object} in kube-apiserver's words; empty when valid. */
  List<String> validate(ApiHandler.Target target, ObjectNode object, JsonNode oldObject) {
    return List.of();
  }
}
