package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Converts objects and lists into {@code meta.k8s.io/v1 Table}s for {@code kubectl get}: custom resources get NAME
 * plus their CRD's {@code additionalPrinterColumns} (AGE when it has none, like the API server); a few built-in kinds
 * get their usual columns; every other kind gets NAME and AGE.
 */
final class TableConverter {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A column: its definition and how to compute a cell from an object (null for no value). */
  private record Column(String name, String type, String format, String description, int priority,
      BiFunction<JsonNode, Instant, JsonNode> cell) {
    Column withPriority(int newPriority) {
      return new Column(name, type, format, description, newPriority, cell);
    }
  }

  private TableConverter() {
  }

  static boolean wantsTable(String accept) {
    return accept != null && accept.contains("as=Table") && accept.contains("meta.k8s.io");
  }

  static ObjectNode toTable(ResourcePath rp, JsonNode document, List<JsonNode> crds, Instant now) {
    List<JsonNode> items = new ArrayList<>();
    if (document.has("items") && document.path("items").isArray()) {
      document.path("items").forEach(items::add);
    } else {
      items.add(document);
    }
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("Name", "string", "name",
        "Name must be unique within a namespace. Cannot be updated.", 0,
        (o, t) -> o.path("metadata").path("name").isMissingNode() ? null : o.path("metadata").path("name")));
    JsonNode crdVersion = crdVersion(rp, crds);
    if (crdVersion != null) {
      columns.addAll(crdColumns(crdVersion));
    } else {
      columns.addAll(builtinColumns(rp.plural()));
    }

    ObjectNode table = NODES.objectNode();
    table.put("kind", "Table");
    table.put("apiVersion", "meta.k8s.io/v1");
    ObjectNode metadata = table.putObject("metadata");
    String resourceVersion = document.path("metadata").path("resourceVersion").asText("");
    if (!resourceVersion.isEmpty()) {
      metadata.put("resourceVersion", resourceVersion);
    }
    ArrayNode definitions = table.putArray("columnDefinitions");
    for (Column column : columns) {
      definitions.addObject().put("name", column.name()).put("type", column.type()).put("format", column.format())
          .put("description", column.description()).put("priority", column.priority());
    }
    String includeObject = rp.query().getOrDefault("includeObject", "Metadata");
    ArrayNode rows = table.putArray("rows");
    for (JsonNode item : items) {
      ObjectNode row = rows.addObject();
      ArrayNode cells = row.putArray("cells");
      for (Column column : columns) {
        JsonNode cell;
        try {
          cell = column.cell().apply(item, now);
        } catch (RuntimeException e) {
          cell = null;
        }
        cells.add(cell == null ? NODES.nullNode() : cell);
      }
      if (includeObject.equals("Object")) {
        row.set("object", item);
      } else if (!includeObject.equals("None")) {
        ObjectNode partial = row.putObject("object");
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", "meta.k8s.io/v1");
        partial.set("metadata", item.path("metadata").deepCopy());
      }
    }
    return table;
  }

  /** The CRD version entry serving {@code rp}'s group, version and plural, or null. */
  private static JsonNode crdVersion(ResourcePath rp, List<JsonNode> crds) {
    for (JsonNode crd : crds) {
      JsonNode spec = crd.path("spec");
      if (spec.path("group").asText().equals(rp.group())
          && spec.path("names").path("plural").asText().equals(rp.plural())) {
        for (JsonNode version : spec.path("versions")) {
          if (version.path("name").asText().equals(rp.version())) {
            return version;
          }
        }
      }
    }
    return null;
  }

  private static List<Column> crdColumns(JsonNode version) {
    List<Column> columns = new ArrayList<>();
    JsonNode printerColumns = version.path("additionalPrinterColumns");
    if (!printerColumns.isArray() || printerColumns.isEmpty()) {
      columns.add(age());
      return columns;
    }
    for (JsonNode pc : printerColumns) {
      String type = pc.path("type").asText("string");
      String jsonPath = pc.path("jsonPath").asText("");
      columns.add(new Column(pc.path("name").asText(), type, pc.path("format").asText(""),
          pc.path("description").asText(""), pc.path("priority").asInt(0),
          (o, now) -> cellFor(type, SimpleJsonPath.first(o, jsonPath), now)));
    }
    return columns;
  }

  /** Like the API server's CRD table convertor: typed cells, dates rendered as ages. */
  static JsonNode cellFor(String type, JsonNode value, Instant now) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return null;
    }
    switch (type) {
      case "integer":
        return value.isIntegralNumber() ? value : value.isNumber() ? NODES.numberNode(value.asLong()) : null;
      case "number":
        return value.isNumber() ? value : null;
      case "boolean":
        return value.isBoolean() ? value : null;
      case "date":
        return value.isTextual() ? TextNode.valueOf(age(value.asText(), now)) : null;
      default:
        return TextNode.valueOf(value.isValueNode() ? value.asText() : value.toString());
    }
  }

  static String age(String timestamp, Instant now) {
    try {
      return HumanDuration.of(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException e) {
      return "<invalid>";
    }
  }

  private static Column age() {
    return new Column("Age", "string", "", "CreationTimestamp is a timestamp representing the server time when this "
        + "object was created.", 0,
        (o, now) -> cellFor("date", o.path("metadata").path("creationTimestamp"), now));
  }

  private static Column text(String name, String jsonPath, String orElse) {
    return new Column(name, "string", "", "", 0, (o, now) -> {
      JsonNode value = SimpleJsonPath.first(o, jsonPath);
      return value != null ? cellFor("string", value, now) : orElse == null ? null : TextNode.valueOf(orElse);
    });
  }

  private static Column computed(String name, String type, int priority, BiFunction<JsonNode, Instant, Object> f) {
    return new Column(name, type, "", "", priority, (o, now) -> {
      Object value = f.apply(o, now);
      if (value == null) {
        return null;
      }
      if (value instanceof Number) {
        return NODES.numberNode(((Number) value).longValue());
      }
      return TextNode.valueOf(value.toString());
    });
  }

  private static List<Column> builtinColumns(String plural) {
    switch (plural) {
      case "configmaps":
        return List.of(computed("Data", "integer", 0,
            (o, now) -> o.path("data").size() + o.path("binaryData").size()), age());
      case "secrets":
        return List.of(text("Type", ".type", "Opaque"),
            computed("Data", "integer", 0, (o, now) -> o.path("data").size() + o.path("stringData").size()), age());
      case "namespaces":
        return List.of(text("Status", ".status.phase", "Active"), age());
      case "pods":
        return List.of(computed("Ready", "string", 0, TableConverter::podReady),
            computed("Status", "string", 0, TableConverter::podStatus),
            computed("Restarts", "integer", 0, (o, now) -> {
              long restarts = 0;
              for (JsonNode cs : o.path("status").path("containerStatuses")) {
                restarts += cs.path("restartCount").asLong(0);
              }
              return restarts;
            }),
            age(), text("IP", ".status.podIP", "<none>").withPriority(1),
            text("Node", ".spec.nodeName", "<none>").withPriority(1));
      case "nodes":
        return List.of(computed("Status", "string", 0, TableConverter::nodeStatus),
            computed("Roles", "string", 0, (o, now) -> "<none>"), age(),
            text("Version", ".status.nodeInfo.kubeletVersion", ""),
            computed("Internal-IP", "string", 1, (o, now) -> nodeAddress(o, "InternalIP")),
            computed("External-IP", "string", 1, (o, now) -> nodeAddress(o, "ExternalIP")),
            text("OS-Image", ".status.nodeInfo.osImage", "<unknown>").withPriority(1),
            text("Kernel-Version", ".status.nodeInfo.kernelVersion", "<unknown>").withPriority(1),
            text("Container-Runtime", ".status.nodeInfo.containerRuntimeVersion", "<unknown>").withPriority(1));
      case "services":
        return List.of(text("Type", ".spec.type", "ClusterIP"), text("Cluster-IP", ".spec.clusterIP", "<none>"),
            computed("External-IP", "string", 0, (o, now) -> "<none>"),
            computed("Port(s)", "string", 0, (o, now) -> {
              List<String> ports = new ArrayList<>();
              for (JsonNode p : o.path("spec").path("ports")) {
                ports.add(p.path("port").asText() + "/" + p.path("protocol").asText("TCP"));
              }
              return ports.isEmpty() ? "<none>" : String.join(",", ports);
            }), age());
      case "jobs":
        return List.of(computed("Status", "string", 0, TableConverter::jobStatus),
            computed("Completions", "string", 0, (o, now) -> o.path("status").path("succeeded").asInt(0) + "/"
                + o.path("spec").path("completions").asInt(1)), age());
      case "deployments":
      case "statefulsets":
      case "replicasets":
        return List.of(computed("Ready", "string", 0, (o, now) -> o.path("status").path("readyReplicas").asInt(0)
            + "/" + o.path("spec").path("replicas").asInt(1)), age());
      case "persistentvolumeclaims":
        return List.of(text("Status", ".status.phase", "Pending"), text("Volume", ".spec.volumeName", ""),
            text("Capacity", ".status.capacity.storage", ""),
            computed("Access Modes", "string", 0, (o, now) -> accessModes(o.path("status").path("accessModes"))),
            text("StorageClass", ".spec.storageClassName", "<unset>"),
            text("VolumeAttributesClass", ".spec.volumeAttributesClassName", "<unset>"), age(),
            text("VolumeMode", ".spec.volumeMode", "Filesystem").withPriority(1));
      case "persistentvolumes":
        return List.of(text("Capacity", ".spec.capacity.storage", ""),
            computed("Access Modes", "string", 0, (o, now) -> accessModes(o.path("spec").path("accessModes"))),
            text("Reclaim Policy", ".spec.persistentVolumeReclaimPolicy", ""),
            text("Status", ".status.phase", "Pending"),
            computed("Claim", "string", 0, (o, now) -> o.path("spec").has("claimRef")
                ? o.path("spec").path("claimRef").path("namespace").asText("") + "/"
                + o.path("spec").path("claimRef").path("name").asText("") : ""),
            text("StorageClass", ".spec.storageClassName", ""),
            text("VolumeAttributesClass", ".spec.volumeAttributesClassName", "<unset>"),
            text("Reason", ".status.reason", ""), age(),
            text("VolumeMode", ".spec.volumeMode", "Filesystem").withPriority(1));
      case "leases":
        return List.of(text("Holder", ".spec.holderIdentity", null), age());
      case "events":
        return List.of(computed("Last Seen", "string", 0, (o, now) -> {
          String last = o.path("lastTimestamp").asText("");
          if (last.isEmpty()) {
            last = o.path("eventTime").asText(o.path("metadata").path("creationTimestamp").asText(""));
          }
          return age(last, now);
        }), text("Type", ".type", null), text("Reason", ".reason", null),
            computed("Object", "string", 0, (o, now) -> o.path("involvedObject").path("kind").asText("").toLowerCase(
                java.util.Locale.ROOT) + "/" + o.path("involvedObject").path("name").asText("")),
            text("Message", ".message", null));
      case "customresourcedefinitions":
        return List.of(text("Created At", ".metadata.creationTimestamp", null));
      default:
        return List.of(age());
    }
  }

  /** As kubectl's access modes column: RWO, ROX, RWX, RWOP, joined with commas. */
  private static Object accessModes(JsonNode modes) {
    List<String> abbreviated = new ArrayList<>();
    for (JsonNode mode : modes) {
      abbreviated.add(switch (mode.asText()) {
        case "ReadWriteOnce" -> "RWO";
        case "ReadOnlyMany" -> "ROX";
        case "ReadWriteMany" -> "RWX";
        case "ReadWriteOncePod" -> "RWOP";
        default -> mode.asText();
      });
    }
    return String.join(",", abbreviated);
  }

  /**
   * A pod's STATUS as kubectl prints it (kubernetes' printPod): the pod's reason, else its phase, overridden by the
   * first init container not done ({@code Init:Error}, {@code Init:CrashLoopBackOff}, {@code Init:0/2}), else by the
   * last container's waiting or terminated reason ({@code CrashLoopBackOff}, {@code Completed}, {@code Error});
   * {@code Terminating} once deleted.
   */
  private static Object podStatus(JsonNode pod, Instant now) {
    JsonNode status = pod.path("status");
    String reason = status.path("reason").asText("");
    if (reason.isEmpty()) {
      reason = status.path("phase").asText("Pending");
    }
    JsonNode initStatuses = status.path("initContainerStatuses");
    int initTotal = pod.path("spec").path("initContainers").size();
    boolean initializing = false;
    for (int i = 0; i < initStatuses.size(); i++) {
      JsonNode state = initStatuses.get(i).path("state");
      JsonNode terminated = state.path("terminated");
      if (!terminated.isMissingNode() && terminated.path("exitCode").asInt(0) == 0) {
        continue;
      }
      initializing = true;
      String waiting = state.path("waiting").path("reason").asText("");
      if (!terminated.isMissingNode()) {
        reason = "Init:" + (terminated.path("reason").asText("").isEmpty()
            ? exitOrSignal(terminated) : terminated.path("reason").asText());
      } else if (!waiting.isEmpty() && !waiting.equals("PodInitializing")) {
        reason = "Init:" + waiting;
      } else {
        reason = "Init:" + i + "/" + initTotal;
      }
      break;
    }
    if (!initializing) {
      boolean running = false;
      JsonNode statuses = status.path("containerStatuses");
      for (int i = statuses.size() - 1; i >= 0; i--) {
        JsonNode state = statuses.get(i).path("state");
        String waiting = state.path("waiting").path("reason").asText("");
        JsonNode terminated = state.path("terminated");
        if (!waiting.isEmpty()) {
          reason = waiting;
        } else if (!terminated.isMissingNode()) {
          reason = terminated.path("reason").asText("").isEmpty() ? exitOrSignal(terminated)
              : terminated.path("reason").asText();
        } else if (state.has("running") && statuses.get(i).path("ready").asBoolean(false)) {
          running = true;
        }
      }
      if (reason.equals("Completed") && running) {
        reason = "Running";
      }
    }
    return pod.path("metadata").hasNonNull("deletionTimestamp") ? "Terminating" : reason;
  }

  private static String exitOrSignal(JsonNode terminated) {
    return terminated.path("signal").asInt(0) != 0 ? "Signal:" + terminated.path("signal").asInt()
        : "ExitCode:" + terminated.path("exitCode").asInt();
  }

  private static Object podReady(JsonNode pod, Instant now) {
    int total = pod.path("spec").path("containers").size();
    int ready = 0;
    for (JsonNode cs : pod.path("status").path("containerStatuses")) {
      ready += cs.path("ready").asBoolean(false) ? 1 : 0;
    }
    return ready + "/" + total;
  }

  /** As kubectl prints a node's status: its Ready condition, and SchedulingDisabled when cordoned. */
  private static Object nodeStatus(JsonNode node, Instant now) {
    String status = "Unknown";
    for (JsonNode c : node.path("status").path("conditions")) {
      if (c.path("type").asText().equals("Ready")) {
        status = c.path("status").asText().equals("True") ? "Ready" : "NotReady";
      }
    }
    return node.path("spec").path("unschedulable").asBoolean(false) ? status + ",SchedulingDisabled" : status;
  }

  private static Object nodeAddress(JsonNode node, String type) {
    for (JsonNode a : node.path("status").path("addresses")) {
      if (a.path("type").asText().equals(type)) {
        return a.path("address").asText();
      }
    }
    return "<none>";
  }

  private static Object jobStatus(JsonNode job, Instant now) {
    for (JsonNode c : job.path("status").path("conditions")) {
      if (c.path("status").asText().equals("True")) {
        switch (c.path("type").asText()) {
          case "Complete":
            return "Complete";
          case "Failed":
            return "Failed";
          case "Suspended":
            return "Suspended";
          default:
            break;
        }
      }
    }
    return "Running";
  }
}
