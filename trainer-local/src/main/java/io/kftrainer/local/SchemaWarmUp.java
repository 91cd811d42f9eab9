package io.kftrainer.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kftrainer.schema.CustomResourceValidator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates a made-up custom resource against a one-rule schema on a thread of its own, while the embedded server
 * starts and the CRDs are installed. The first CRD and the first runtime the server validates would otherwise pay,
 * on start-up's one thread, for loading and initialising CEL (about 2,000 classes: its parser, checker, runtime and
 * protobuf descriptors) and the schema validator; here that happens on the other core. Nothing it makes is kept.
 */
public final class SchemaWarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(SchemaWarmUp.class);
  private static final String CRD = """
      {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
       "metadata": {"name": "warmups.warmup.trainer.local"},
       "spec": {"group": "warmup.trainer.local", "scope": "Namespaced",
                "names": {"kind": "WarmUp", "plural": "warmups", "singular": "warmup", "listKind": "WarmUpList"},
                "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                  "type": "object", "properties": {"spec": {"type": "object",
                    "x-kubernetes-validations": [{"rule": "self.replicas >= 0 && self.name.matches('^[a-z]+$')"}],
                    "properties": {"replicas": {"type": "integer", "default": 1},
                                   "name": {"type": "string", "maxLength": 63}}}}}}}]}}
      """;
  private static final String OBJECT = """
      {"apiVersion": "warmup.trainer.local/v1", "kind": "WarmUp", "metadata": {"name": "w", "namespace": "default"},
       "spec": {"name": "warm"}}
      """;

  private SchemaWarmUp() {
  }

  /** Starts the warm-up on a daemon thread and returns it. */
  public static Thread start() {
    Thread thread = new Thread(SchemaWarmUp::run, "schema-warm-up");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static void run() {
    try {
      ObjectMapper json = new ObjectMapper();
      CustomResourceValidator validator = CustomResourceValidator.ofJson(List.of(json.readTree(CRD)));
      JsonNode object = json.readTree(OBJECT);
      validator.prepare((ObjectNode) object);
      validator.validate(object, null);
    } catch (Exception | LinkageError e) {
      // only a lost head start: the server validates as it would have without it
      LOG.debug("Schema warm-up failed", e);
    }
  }
}
