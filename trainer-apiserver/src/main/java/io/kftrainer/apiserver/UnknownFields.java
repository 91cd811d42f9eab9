package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The fields of a request's object that its kind does not declare, as kube-apiserver finds them. Two places look:
 *
 * <ul>
 *   <li>the decoder of a create, an update and the result of a patch ({@link #drop}), which drops them whatever
 *       {@link FieldValidation} says and reports them under {@code Warn} and {@code Strict} as
 *       {@code unknown field "spec.x"}: a built-in kind's by its Go type (here the {@link MergeTypes}, which name
 *       every field of every built-in kind, in the order of the body), a custom resource's by its
 *       {@code metadata} as {@code ObjectMeta} (keys sorted, as kube reads metadata encoded again) then the pruning
 *       of its CRD's schema (paths sorted, {@link Validation#prune});</li>
 *   <li>server-side apply's typing of the applied configuration ({@link #undeclared}), which refuses them
 *       whatever {@link FieldValidation} says: structured-merge-diff's {@code .spec.x: field not declared in
 *       schema}.</li>
 * </ul>
 *
 * <p>Open places hold any field: maps, {@code x-kubernetes-preserve-unknown-fields}, objects without declared fields
 * ({@code RawExtension}, {@code FieldsV1}). Kinds without a type here (CustomResourceDefinitions: fabric8's schema has
 * no apiextensions definitions) hold any field too.
 */
final class UnknownFields {

  private final Validation validation;
  private final MergeTypes mergeTypes;

  UnknownFields(Validation validation, MergeTypes mergeTypes) {
    this.validation = validation;
    this.mergeTypes = mergeTypes;
  }

  /**
   * Removes from {@code object} (with its {@code apiVersion} and {@code kind} set) what kube-apiserver's decoder
   * drops, and returns the problems it reports: {@code unknown field "spec.x"}.
   */
  List<String> drop(Target target, ObjectNode object) {
    ResourcePath rp = target.rp();
    List<String> paths = new ArrayList<>();
    if (Discovery.isBuiltin(rp.group(), rp.plural())) {
      remove(object, mergeTypes.of(rp.group(), rp.version(), target.kindName()), "", false, paths);
    } else {
      if (object.get("metadata") instanceof ObjectNode metadata) {
        remove(metadata, MergeTypes.objectMeta(), "metadata", true, paths);
      }
      paths.addAll(validation.prune(object));
    }
    List<String> problems = new ArrayList<>(paths.size());
    paths.forEach(path -> problems.add("unknown field \"" + path + "\""));
    return problems;
  }

  /** Removes the fields {@code type} does not allow below {@code value}, adding their paths (Go's text). */
  private static void remove(JsonNode value, MergeType type, String path, boolean sortedKeys, List<String> removed) {
    if (value instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      if (sortedKeys) {
        Collections.sort(names);
      }
      for (String name : names) {
        String child = path.isEmpty() ? name : path + "." + name;
        if (!type.allows(name)) {
          object.remove(name);
          removed.add(child);
        } else if (type.field(name) != MergeType.DEDUCED) {
          remove(object.get(name), type.field(name), child, sortedKeys, removed);
        }
      }
    } else if (value != null && value.isArray() && type.items() != MergeType.DEDUCED) {
      for (int i = 0; i < value.size(); i++) {
        remove(value.get(i), type.items(), path + "[" + i + "]", sortedKeys, removed);
      }
    }
  }

  /**
   * The places of an applied configuration its type does not declare, in structured-merge-diff's text
   * ({@code .spec.x}, {@code .spec.containers[name="c"].x}, {@code .spec.args[0]}), in the order of the body. Items
   * of a map list without their key are left to {@link ServerSideApply}, which refuses them.
   */
  static List<String> undeclared(JsonNode config, MergeType type) {
    List<String> found = new ArrayList<>();
    undeclared(config, type, new ArrayList<>(), found);
    return found;
  }

  private static void undeclared(JsonNode value, MergeType type, List<String> path, List<String> found) {
    if (value.isObject()) {
      value.properties().forEach(e -> {
        List<String> child = append(path, "f:" + e.getKey());
        if (!type.allows(e.getKey())) {
          found.add(FieldPaths.describe(child));
        } else if (type.field(e.getKey()) != MergeType.DEDUCED) {
          undeclared(e.getValue(), type.field(e.getKey()), child, found);
        }
      });
    } else if (value.isArray() && type.items() != MergeType.DEDUCED) {
      for (int i = 0; i < value.size(); i++) {
        String element;
        switch (type.listType()) {
          case SET -> element = "v:" + value.get(i);
          case MAP -> {
            try {
              element = FieldPaths.itemElement(value.get(i), type);
            } catch (IllegalArgumentException e) {
              continue;
            }
          }
          default -> element = "i:" + i;
        }
        undeclared(value.get(i), type.items(), append(path, element), found);
      }
    }
  }

  /**
   * structured-merge-diff's error for {@code undeclared} places, as kube-apiserver answers an apply with them (a 500:
   * its error is not a Status, kubernetes/kubernetes#139253): {@code failed to create typed patch object
   * (ns/name; group/version, Kind=K): .spec.x: field not declared in schema}, for one place only: kube-apiserver
   * names one picked in Go's map order (another at each try, in the lab), here the first in the body. The namespace
   * and name are the configuration's own.
   */
  static Response typingFailure(Target target, JsonNode config, List<String> undeclared) {
    String text = undeclared.get(0) + ": field not declared in schema";
    JsonNode metadata = config.path("metadata");
    ResourcePath rp = target.rp();
    String message = "failed to create typed patch object (" + metadata.path("namespace").asText("") + "/"
        + metadata.path("name").asText("") + "; " + rp.group() + "/" + rp.version() + ", Kind=" + target.kindName()
        + "): " + text;
    return Response.json(500, Response.failure(500, null, message, null));
  }

  private static List<String> append(List<String> path, String element) {
    List<String> child = new ArrayList<>(path.size() + 1);
    child.addAll(path);
    child.add(element);
    return child;
  }
}
