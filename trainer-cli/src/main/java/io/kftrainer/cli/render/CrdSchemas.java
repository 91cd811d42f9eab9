package io.kftrainer.cli.render;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kftrainer.schema.CustomResourceValidator;
import io.kftrainer.schema.SchemaFieldError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The schemas and CEL rules of the Trainer CRDs that trainer-api ships, applied to {@code render}'s input as
 * kube-apiserver applies them on create: what a cluster would reject, render rejects, with the same messages.
 */
final class CrdSchemas {

  private static final List<String> CRDS = List.of("trainjobs", "trainingruntimes", "clustertrainingruntimes");
  private static final CustomResourceValidator VALIDATOR = load();

  private CrdSchemas() {
  }

  private static CustomResourceValidator load() {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (String plural : CRDS) {
      String resource = "META-INF/fabric8/" + plural + ".trainer.kubeflow.org-v1.yml";
      try (InputStream in = CrdSchemas.class.getClassLoader().getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("the class path lacks " + resource + " (trainer-api)");
        }
        crds.add(Serialization.unmarshal(in, CustomResourceDefinition.class));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return CustomResourceValidator.of(crds);
  }

  /** The typed model writes absent fields as nulls; the document the user wrote did not have them. */
  private static JsonNode withoutNulls(JsonNode node) {
    if (node.isObject()) {
      var fields = node.fields();
      while (fields.hasNext()) {
        var field = fields.next();
        if (field.getValue().isNull()) {
          fields.remove();
        } else {
          withoutNulls(field.getValue());
        }
      }
    } else if (node.isArray()) {
      node.forEach(CrdSchemas::withoutNulls);
    }
    return node;
  }

  /**
   * Why a cluster would reject {@code object}, as kube-apiserver's message: every schema and CEL error at once,
   * {@code TrainJob.trainer.kubeflow.org "x" is invalid: [a, b]}; empty when it is valid.
   */
  static Optional<String> rejection(HasMetadata object) {
    JsonNode tree = withoutNulls(Serialization.jsonMapper().valueToTree(object));
    List<SchemaFieldError> errors = VALIDATOR.validate(tree, null);
    if (errors.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(CustomResourceValidator.message(object.getKind(), HasMetadata.getGroup(object.getClass()),
        object.getMetadata().getName(), errors));
  }
}
