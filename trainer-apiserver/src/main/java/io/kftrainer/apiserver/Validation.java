package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kftrainer.schema.CustomResourceValidator;
import io.kftrainer.schema.SchemaFieldError;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The stored CRDs' schemas applied to custom resources on create and update, as kube-apiserver does: pruning,
 * defaulting, structural and CEL validation ({@link CustomResourceValidator}). Rebuilt when a CRD changes.
 */
final class Validation {

  private final Supplier<List<JsonNode>> crds;
  private final java.util.concurrent.atomic.AtomicLong crdChanges = new java.util.concurrent.atomic.AtomicLong();
  private volatile Cached cached;

  private record Cached(long changes, CustomResourceValidator validator) {
  }

  Validation(Supplier<List<JsonNode>> crds) {
    this.crds = crds;
  }

  void invalidate() {
    crdChanges.incrementAndGet();
  }

  private CustomResourceValidator validator() {
    long changes = crdChanges.get();
    Cached current = cached;
    if (current == null || current.changes() != changes) {
      current = new Cached(changes, CustomResourceValidator.ofJson(crds.get()));
      cached = current;
    }
    return current.validator();
  }

  /**
   * Prunes unknown fields and applies defaults in place (custom resources); merges a Secret's stringData and
   * defaults its {@code type} to {@code Opaque}.
   */
  void prepare(Target target, ObjectNode object) {
    if (SecretStringData.applies(target)) {
      SecretStringData.mergeIntoData(object);
      if (object.path("type").asText("").isEmpty()) {
        object.put("type", "Opaque");
      }
    }
    validator().prepare(object);
  }

  /**
   * Removes the fields a custom resource's CRD schema does not declare and returns their paths, sorted
   * ({@link CustomResourceValidator#prune}); nothing for other kinds.
   */
  List<String> prune(ObjectNode object) {
    return validator().prune(object);
  }

  /**
   * The field errors of {@code object} in kube-apiserver's words ({@link NameValidation},
   * {@link VolumePathValidation}, {@link DataSizeValidation}, then the CRD schema's); empty when valid.
   */
  List<String> validate(Target target, ObjectNode object, JsonNode oldObject) {
    List<String> errors = new ArrayList<>(NameValidation.errors(target, object));
    errors.addAll(VolumePathValidation.errors(target, object));
    errors.addAll(DataSizeValidation.errors(target, object));
    for (SchemaFieldError error : validator().validate(object, oldObject)) {
      errors.add(error.toString());
    }
    return errors;
  }
}
