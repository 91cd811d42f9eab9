package io.kftrainer.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * YAML documents as a user writes them (multi-document files, comments), read into generic objects: the tests send
 * exactly what the files say, not what a Java model would make of it.
 */
public final class Manifests {

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = new ObjectMapper();

  private Manifests() {
  }

  /** The documents of a file, in order; empty documents are skipped. */
  public static List<GenericKubernetesResource> read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The documents of a test resource ({@code src/test/resources/<name>}). */
  public static List<GenericKubernetesResource> resource(String name) {
    try (InputStream in = Manifests.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + name);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The only document of a test resource, renamed to {@code name}. */
  public static GenericKubernetesResource resource(String resource, String name) {
    List<GenericKubernetesResource> documents = resource(resource);
    if (documents.size() != 1) {
      throw new IllegalArgumentException(resource + " has " + documents.size() + " documents, not one");
    }
    GenericKubernetesResource object = documents.get(0);
    object.getMetadata().setName(name);
    return object;
  }

  /** Sets {@code spec.<field>} of a generic object, e.g. {@code suspend}. */
  public static GenericKubernetesResource withSpec(GenericKubernetesResource object, String field, Object value) {
    ObjectNode tree = JSON.valueToTree(object);
    ((ObjectNode) tree.get("spec")).set(field, JSON.valueToTree(value));
    try {
      return JSON.treeToValue(tree, GenericKubernetesResource.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The text of a test resource, for kubectl's standard input. */
  public static String text(String name) {
    try (InputStream in = Manifests.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<GenericKubernetesResource> parse(String yaml) throws IOException {
    List<GenericKubernetesResource> documents = new ArrayList<>();
    try (var parser = new YAMLFactory().createParser(yaml)) {
      for (JsonNode document : YAML.readValues(parser, JsonNode.class).readAll()) {
        if (document instanceof ObjectNode) {
          documents.add(JSON.treeToValue(document, GenericKubernetesResource.class));
        }
      }
    }
    return documents;
  }
}
