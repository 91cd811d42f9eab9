package io.kftrainer.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Malformed and mutated TrainJobs and TrainingRuntimes, from two valid seeds: every field of a seed replaced by a
 * value of another type, by null, by a huge or negative number, a 1 MiB string or a unicode one, or removed; plus
 * deep nesting, duplicate list-map keys and invalid YAML. Deterministic: the same cases in the same order.
 */
public final class MalformedInputs {

  /** A 1 MiB string. */
  static final String MEBIBYTE = "x".repeat(1 << 20);
  static final String UNICODE = "ünïcødé-名前-😀-\u200b-\u202e";
  private static final String NESTED = "<nested>";
  /** Stands for a dot inside a key in a path (one-dot leader). */
  private static final String DOT = "\u2024";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * One input: {@code kind} of the object ({@code TrainJob} or {@code TrainingRuntime}), its {@code name}, the
   * {@code field} mutated (a path such as {@code spec.trainer.numNodes}, or a word for whole-document cases), how,
   * and the document's text (JSON, which is YAML, or raw YAML).
   */
  public record Case(String kind, String name, String field, String mutation, String text) {

    /**
     * The names a rejection may give the field: its own, or for an entry of a map or a list, the map's or the
     * list's ({@code metadata.labels: Invalid value: "...": ...}).
     */
    public List<String> fieldNames() {
      String[] parts = field.replaceAll("\\[\\d+]", "").split("\\.");
      String own = parts[parts.length - 1].replace(DOT, ".");
      return parts.length == 1 ? List.of(own) : List.of(own, parts[parts.length - 2]);
    }

    @Override
    public String toString() {
      return kind + " " + name + " " + field + " " + mutation;
    }
  }

  private MalformedInputs() {
  }

  public static List<Case> all() {
    List<Case> cases = new ArrayList<>();
    mutateEveryField(cases, "TrainJob", trainJob());
    mutateEveryField(cases, "TrainingRuntime", runtime());
    structural(cases);
    return cases;
  }

  static ObjectNode trainJob() {
    return (ObjectNode) read("""
        {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
         "metadata": {"name": "seed", "namespace": "default", "labels": {"team": "a"}},
         "spec": {"runtimeRef": {"name": "torch-distributed"}, "suspend": false,
           "trainer": {"numNodes": 2, "numProcPerNode": 1, "image": "busybox", "command": ["python", "train.py"],
             "args": ["--epochs", "3"],
             "env": [{"name": "LR", "value": "0.1"}],
             "resourcesPerNode": {"limits": {"cpu": "1"}}}}}
        """);
  }

  static ObjectNode runtime() {
    return (ObjectNode) read("""
        {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainingRuntime",
         "metadata": {"name": "seed", "namespace": "default"},
         "spec": {"mlPolicy": {"numNodes": 1, "torch": {"numProcPerNode": "auto"}},
           "template": {"spec": {"replicatedJobs": [{"name": "node", "replicas": 1,
             "template": {"metadata": {"labels": {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}},
               "spec": {"template": {"spec": {"containers": [{"name": "node", "image": "busybox",
                 "command": ["python"], "ports": [{"containerPort": 29500}],
                 "env": [{"name": "MODE", "value": "train"}],
                 "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}],
                 "restartPolicy": "OnFailure"}}, "parallelism": 1}}}]}}}}
        """);
  }

  private static void mutateEveryField(List<Case> cases, String kind, ObjectNode seed) {
    for (String path : paths(seed, "")) {
      if (path.equals("apiVersion") || path.equals("kind") || path.startsWith("metadata.namespace")) {
        continue;
      }
      JsonNode original = at(seed, path);
      List<Map.Entry<String, JsonNode>> replacements = new ArrayList<>();
      replacements.add(Map.entry("wrong type", wrongType(original)));
      replacements.add(Map.entry("null", NODES.nullNode()));
      if (original.isNumber()) {
        replacements.add(Map.entry("huge", NODES.numberNode(new java.math.BigInteger("99999999999999999999999"))));
        replacements.add(Map.entry("negative", NODES.numberNode(-7)));
        replacements.add(Map.entry("fraction", NODES.numberNode(1.5)));
      }
      if (original.isTextual()) {
        replacements.add(Map.entry("1 MiB string", NODES.textNode(MEBIBYTE)));
        replacements.add(Map.entry("unicode", NODES.textNode(UNICODE)));
        replacements.add(Map.entry("empty", NODES.textNode("")));
        replacements.add(Map.entry("control characters", NODES.textNode("a\nb\u0000c\u001b[31m")));
      }
      if (original.isContainerNode()) {
        replacements.add(Map.entry("empty", original.isArray() ? NODES.arrayNode() : NODES.objectNode()));
      }
      for (var replacement : replacements) {
        add(cases, kind, seed, path, replacement.getKey(), copy -> set(copy, path, replacement.getValue()));
      }
      if (!path.endsWith("]")) {
        add(cases, kind, seed, path, "missing", copy -> remove(copy, path));
      }
    }
  }

  private static void structural(List<Case> cases) {
    add(cases, "TrainJob", trainJob(), "spec.trainer.env", "duplicate list key",
        copy -> ((ArrayNode) at(copy, "spec.trainer.env")).add(at(copy, "spec.trainer.env[0]").deepCopy()));
    add(cases, "TrainingRuntime", runtime(), "spec.template.spec.replicatedJobs", "duplicate list key",
        copy -> ((ArrayNode) at(copy, "spec.template.spec.replicatedJobs"))
            .add(at(copy, "spec.template.spec.replicatedJobs[0]").deepCopy()));
    String containers = "spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers";
    add(cases, "TrainingRuntime", runtime(), containers, "duplicate list key",
        copy -> ((ArrayNode) at(copy, containers)).add(at(copy, containers + "[0]").deepCopy()));
    for (int depth : List.of(100, 3000)) {
      // written as text: Jackson itself refuses to write more than 1000 levels
      add(cases, "TrainJob", trainJob(), "spec.trainer.deep", "nested " + depth + " levels",
          copy -> ((ObjectNode) at(copy, "spec.trainer")).put("deep", NESTED));
      Case placeholder = cases.remove(cases.size() - 1);
      cases.add(new Case(placeholder.kind(), placeholder.name(), placeholder.field(), placeholder.mutation(),
          placeholder.text().replace("\"" + NESTED + "\"", "{\"x\":".repeat(depth) + "{}" + "}".repeat(depth))));
    }
    String[] yaml = {
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: y1\nspec: {}\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n\tname: y2\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: y3\n  name: y3b\nspec:\n"
            + "  runtimeRef: {name: torch-distributed}\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: [name, y4]\n",
        "- just\n- a\n- list\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: *undefined\n",
        "\"unterminated\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: y8}\nspec: !!binary AAAA\n",
        "%YAML 9.9\n---\nkind: TrainJob\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: y10}\nspec:\n  runtimeRef:\n"
            + "    name: torch-distributed\n   trainer: {}\n",
    };
    for (int i = 0; i < yaml.length; i++) {
      // two are well-formed YAML with a field of the wrong type, which the rejection must name
      String field = i == 3 ? "metadata" : i == 7 ? "spec" : "yaml";
      cases.add(new Case("TrainJob", "yaml-" + i, field, "invalid YAML", yaml[i]));
    }
  }

  private interface Edit {
    void apply(ObjectNode copy);
  }

  private static void add(List<Case> cases, String kind, ObjectNode seed, String path, String mutation, Edit edit) {
    ObjectNode copy = seed.deepCopy();
    String name = (kind.equals("TrainJob") ? "tj-" : "rt-") + cases.size();
    ((ObjectNode) copy.get("metadata")).put("name", name);
    edit.apply(copy);
    cases.add(new Case(kind, name, path, mutation, copy.toString()));
  }

  private static JsonNode wrongType(JsonNode original) {
    if (original.isTextual()) {
      return NODES.numberNode(42);
    }
    if (original.isNumber()) {
      return NODES.textNode("many");
    }
    if (original.isBoolean()) {
      return NODES.textNode("sometimes");
    }
    if (original.isArray()) {
      return NODES.objectNode().put("a", 1);
    }
    return NODES.arrayNode().add(1);
  }

  /** Every path of the tree, objects and arrays included, parents first. */
  private static List<String> paths(JsonNode node, String prefix) {
    List<String> paths = new ArrayList<>();
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        var field = it.next();
        String key = field.getKey().replace(".", DOT); // label keys have dots
        String path = prefix.isEmpty() ? key : prefix + "." + key;
        paths.add(path);
        paths.addAll(paths(field.getValue(), path));
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String path = prefix + "[" + i + "]";
        paths.add(path);
        paths.addAll(paths(node.get(i), path));
      }
    }
    return paths;
  }

  private static JsonNode at(JsonNode root, String path) {
    JsonNode node = root;
    for (String step : steps(path)) {
      node = step.startsWith("[") ? node.get(Integer.parseInt(step.substring(1, step.length() - 1)))
          : node.get(step);
    }
    return node;
  }

  private static void set(ObjectNode root, String path, JsonNode value) {
    List<String> steps = steps(path);
    JsonNode parent = at(root, String.join(".", steps.subList(0, steps.size() - 1)).replace(".[", "["));
    String last = steps.get(steps.size() - 1);
    if (last.startsWith("[")) {
      ((ArrayNode) parent).set(Integer.parseInt(last.substring(1, last.length() - 1)), value);
    } else {
      ((ObjectNode) parent).set(last, value);
    }
  }

  private static void remove(ObjectNode root, String path) {
    List<String> steps = steps(path);
    JsonNode parent = at(root, String.join(".", steps.subList(0, steps.size() - 1)).replace(".[", "["));
    ((ObjectNode) parent).remove(steps.get(steps.size() - 1));
  }

  /** {@code a.b[0].c} as {@code a}, {@code b}, {@code [0]}, {@code c}. */
  private static List<String> steps(String path) {
    List<String> steps = new ArrayList<>();
    for (String part : path.split("\\.")) {
      if (part.isEmpty()) {
        continue;
      }
      part = part.replace(DOT, ".");
      int bracket = part.indexOf('[');
      if (bracket < 0) {
        steps.add(part);
      } else {
        if (bracket > 0) {
          steps.add(part.substring(0, bracket));
        }
        for (String index : part.substring(bracket).split("(?=\\[)")) {
          steps.add(index);
        }
      }
    }
    return steps;
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
