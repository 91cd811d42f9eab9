package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's checks of what a kubelet turns into paths, with its messages and field paths: ConfigMap and
 * Secret data keys ({@code data[KEY]}, {@code IsConfigMapKey}), and in pod specs (of Pods, PodTemplates, Jobs) the
 * container and volume names (DNS-1123 labels), the {@code items[].path} of configMap, secret, downwardAPI and projected sources
 * and the {@code path} of projected ServiceAccount tokens ({@code validateLocalNonReservedPath}: relative, no
 * {@code ..} element, not starting with {@code ..}), file modes ({@code 0} to {@code 0777}), and the
 * {@code subPath} of volume mounts ({@code validateLocalDescendingPath}) whose volume must exist.
 */
final class VolumePathValidation {

  private static final String FILE_MODE = "must be a number between 0 and 0777 (octal), both inclusive";

  private VolumePathValidation() {
  }

  static List<String> errors(Target target, JsonNode object) {
    List<String> errors = new ArrayList<>();
    String group = target.rp().group();
    switch (group + "/" + target.rp().plural()) {
      case "/configmaps" -> {
        keys(object.path("data"), "data", errors);
        keys(object.path("binaryData"), "binaryData", errors);
      }
      case "/secrets" -> keys(object.path("data"), "data", errors); // stringData is merged in by then
      case "/pods" -> podSpec(object.path("spec"), "spec", errors);
      case "/podtemplates" -> podSpec(object.path("template").path("spec"), "template.spec", errors);
      case "batch/jobs" -> podSpec(object.path("spec").path("template").path("spec"), "spec.template.spec", errors);
      default -> {
      }
    }
    return errors;
  }

  private static void keys(JsonNode data, String path, List<String> errors) {
    for (Iterator<String> it = data.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      NameValidation.configMapKey(key)
          .forEach(message -> errors.add(NameValidation.invalid(path + "[" + key + "]", key, message)));
    }
  }

  private static void podSpec(JsonNode spec, String path, List<String> errors) {
    Set<String> volumes = new HashSet<>();
    JsonNode list = spec.path("volumes");
    for (int i = 0; i < list.size(); i++) {
      JsonNode volume = list.get(i);
      String at = path + ".volumes[" + i + "]";
      String name = volume.path("name").asText("");
      volumes.add(name);
      if (name.isEmpty()) {
        errors.add(at + ".name: Required value");
      } else {
        NameValidation.dns1123Label(name)
            .forEach(message -> errors.add(NameValidation.invalid(at + ".name", name, message)));
      }
      for (String source : List.of("configMap", "secret", "downwardAPI")) {
        if (volume.has(source)) {
          mode(volume.path(source).path("defaultMode"), at + "." + source + ".defaultMode", errors);
          items(volume.path(source).path("items"), at + "." + source + ".items", errors);
        }
      }
      if (volume.has("projected")) {
        JsonNode projected = volume.path("projected");
        mode(projected.path("defaultMode"), at + ".projected.defaultMode", errors);
        JsonNode sources = projected.path("sources");
        for (int j = 0; j < sources.size(); j++) {
          String sourceAt = at + ".projected.sources[" + j + "]";
          for (String source : List.of("configMap", "secret", "downwardAPI")) {
            if (sources.get(j).has(source)) {
              items(sources.get(j).path(source).path("items"), sourceAt + "." + source + ".items", errors);
            }
          }
          JsonNode token = sources.get(j).path("serviceAccountToken");
          if (!token.isMissingNode()) {
            nonReservedPath(token.path("path").asText(""), sourceAt + ".serviceAccountToken.path", errors);
          }
        }
      }
    }
    for (String containers : List.of("initContainers", "containers", "ephemeralContainers")) {
      JsonNode array = spec.path(containers);
      for (int i = 0; i < array.size(); i++) {
        String name = array.get(i).path("name").asText("");
        String nameAt = path + "." + containers + "[" + i + "].name";
        if (name.isEmpty()) {
          errors.add(nameAt + ": Required value");
        } else {
          NameValidation.dns1123Label(name)
              .forEach(message -> errors.add(NameValidation.invalid(nameAt, name, message)));
        }
        JsonNode mounts = array.get(i).path("volumeMounts");
        for (int j = 0; j < mounts.size(); j++) {
          String at = path + "." + containers + "[" + i + "].volumeMounts[" + j + "]";
          String volume = mounts.get(j).path("name").asText("");
          if (!volumes.contains(volume)) {
            errors.add(at + ".name: Not found: " + Json.MAPPER.getNodeFactory().textNode(volume));
          }
          String subPath = mounts.get(j).path("subPath").asText("");
          if (!subPath.isEmpty()) {
            descendingPath(subPath, at + ".subPath", errors);
          }
        }
      }
    }
  }

  private static void items(JsonNode items, String path, List<String> errors) {
    for (int i = 0; i < items.size(); i++) {
      String at = path + "[" + i + "]";
      String target = items.get(i).path("path").asText("");
      if (target.isEmpty()) {
        errors.add(at + ".path: Required value");
      } else {
        nonReservedPath(target, at + ".path", errors);
      }
      mode(items.get(i).path("mode"), at + ".mode", errors);
    }
  }

  private static void mode(JsonNode mode, String path, List<String> errors) {
    if (!mode.isMissingNode() && !mode.isNull() && (!mode.canConvertToInt() || mode.asInt() < 0
        || mode.asInt() > 0777)) {
      errors.add(path + ": Invalid value: " + mode + ": " + FILE_MODE);
    }
  }

  /** {@code validateLocalDescendingPath}: relative, and no element is {@code ..}. */
  private static void descendingPath(String value, String path, List<String> errors) {
    if (value.startsWith("/")) {
      errors.add(NameValidation.invalid(path, value, "must be a relative path"));
    }
    for (String element : value.split("/", -1)) {
      if (element.equals("..")) {
        errors.add(NameValidation.invalid(path, value, "must not contain '..'"));
        break;
      }
    }
  }

  /** {@code validateLocalNonReservedPath}: a descending path that does not start with {@code ..}. */
  private static void nonReservedPath(String value, String path, List<String> errors) {
    descendingPath(value, path, errors);
    if (value.startsWith("..")) {
      errors.add(NameValidation.invalid(path, value, "must not start with '..'"));
    }
  }
}
