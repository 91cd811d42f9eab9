package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Decodes the {@code application/vnd.kubernetes.protobuf} request bodies that {@code kubectl create namespace|configmap|
 * secret|serviceaccount} send (kubectl's typed clients write protobuf and do not fall back to JSON), and the
 * DeleteOptions of typed clients' deletes (helm's, of its release Secrets), into JSON. Only these kinds are understood
 * (their proto field numbers are those of k8s.io/api core/v1 and k8s.io/apimachinery meta/v1); any other kind is
 * refused with 415 by the caller.
 */
final class KubernetesProtobuf {

  static final List<String> KINDS = List.of("ConfigMap", "Namespace", "Secret", "ServiceAccount");
  /** The body of a DELETE from a typed client (helm deletes its release Secrets so), in either group version. */
  static final String DELETE_OPTIONS = "DeleteOptions";
  private static final byte[] MAGIC = {'k', '8', 's', 0};
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Thrown for a body that is not a protobuf envelope of one of {@link #KINDS}. */
  static final class UnsupportedException extends IOException {
    private static final long serialVersionUID = 1L;

    UnsupportedException(String message) {
      super(message);
    }
  }

  private KubernetesProtobuf() {
  }

  static ObjectNode decode(byte[] body) throws IOException {
    if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
      throw new UnsupportedException("not a Kubernetes protobuf envelope");
    }
    // runtime.Unknown: typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2
    Reader unknown = new Reader(body, MAGIC.length, body.length);
    String apiVersion = "";
    String kind = "";
    Reader raw = null;
    while (unknown.more()) {
      int tag = unknown.tag();
      if (tag >>> 3 == 1) {
        Reader typeMeta = unknown.message();
        while (typeMeta.more()) {
          int t = typeMeta.tag();
          switch (t >>> 3) {
            case 1: apiVersion = typeMeta.string(); break;
            case 2: kind = typeMeta.string(); break;
            default: typeMeta.skip(t);
          }
        }
      } else if (tag >>> 3 == 2) {
        raw = unknown.message();
      } else {
        unknown.skip(tag);
      }
    }
    if (kind.equals(DELETE_OPTIONS) && (apiVersion.equals("v1") || apiVersion.equals("meta.k8s.io/v1"))
        && raw != null) {
      return deleteOptions(raw, NODES.objectNode().put("apiVersion", apiVersion).put("kind", kind));
    }
    if (!KINDS.contains(kind) || !apiVersion.equals("v1") || raw == null) {
      throw new UnsupportedException("protobuf bodies are understood only for v1 " + KINDS + ", not "
          + (apiVersion.isEmpty() ? "" : apiVersion + " ") + kind + " (and DeleteOptions)");
    }
    ObjectNode object = NODES.objectNode().put("apiVersion", apiVersion).put("kind", kind);
    while (raw.more()) {
      int tag = raw.tag();
      int field = tag >>> 3;
      if (field == 1) {
        object.set("metadata", objectMeta(raw.message()));
        continue;
      }
      switch (kind) {
        case "ConfigMap":
          configMapField(object, raw, tag);
          break;
        case "Secret":
          secretField(object, raw, tag);
          break;
        case "Namespace":
          namespaceField(object, raw, tag);
          break;
        default:
          serviceAccountField(object, raw, tag);
      }
    }
    return object;
  }

  /**
   * meta/v1 DeleteOptions: gracePeriodSeconds = 1, preconditions = 2 {uid = 1, resourceVersion = 2},
   * orphanDependents = 3, propagationPolicy = 4, dryRun = 5.
   */
  private static ObjectNode deleteOptions(Reader r, ObjectNode options) throws IOException {
    while (r.more()) {
      int tag = r.tag();
      switch (tag >>> 3) {
        case 1: options.put("gracePeriodSeconds", r.varint()); break;
        case 2: {
          Reader preconditions = r.message();
          ObjectNode node = objectOf(options, "preconditions");
          while (preconditions.more()) {
            int t = preconditions.tag();
            switch (t >>> 3) {
              case 1: text(node, "uid", preconditions.string()); break;
              case 2: text(node, "resourceVersion", preconditions.string()); break;
              default: preconditions.skip(t);
            }
          }
          break;
        }
        case 3: options.put("orphanDependents", r.varint() != 0); break;
        case 4: text(options, "propagationPolicy", r.string()); break;
        case 5: arrayOf(options, "dryRun").add(r.string()); break;
        default: r.skip(tag);
      }
    }
    return options;
  }

  private static void configMapField(ObjectNode object, Reader r, int tag) throws IOException {
    switch (tag >>> 3) {
      case 2: mapEntry(objectOf(object, "data"), r.message(), false); break;
      case 3: mapEntry(objectOf(object, "binaryData"), r.message(), true); break;
      case 4: object.put("immutable", r.varint() != 0); break;
      default: r.skip(tag);
    }
  }

  private static void secretField(ObjectNode object, Reader r, int tag) throws IOException {
    switch (tag >>> 3) {
      case 2: mapEntry(objectOf(object, "data"), r.message(), true); break;
      case 3: text(object, "type", r.string()); break;
      case 4: mapEntry(objectOf(object, "stringData"), r.message(), false); break;
      case 5: object.put("immutable", r.varint() != 0); break;
      default: r.skip(tag);
    }
  }

  private static void namespaceField(ObjectNode object, Reader r, int tag) throws IOException {
    if (tag >>> 3 == 2) { // spec {finalizers = 1}
      Reader spec = r.message();
      ObjectNode specNode = objectOf(object, "spec");
      while (spec.more()) {
        int t = spec.tag();
        if (t >>> 3 == 1) {
          arrayOf(specNode, "finalizers").add(spec.string());
        } else {
          spec.skip(t);
        }
      }
    } else {
      r.skip(tag); // status is the server's
    }
  }

  private static void serviceAccountField(ObjectNode object, Reader r, int tag) throws IOException {
    switch (tag >>> 3) {
      case 3: { // imagePullSecrets: LocalObjectReference {name = 1}
        Reader ref = r.message();
        ObjectNode entry = arrayOf(object, "imagePullSecrets").addObject();
        while (ref.more()) {
          int t = ref.tag();
          if (t >>> 3 == 1) {
            text(entry, "name", ref.string());
          } else {
            ref.skip(t);
          }
        }
        break;
      }
      case 4: object.put("automountServiceAccountToken", r.varint() != 0); break;
      default: r.skip(tag);
    }
  }

  private static ObjectNode objectMeta(Reader r) throws IOException {
    ObjectNode meta = NODES.objectNode();
    while (r.more()) {
      int tag = r.tag();
      switch (tag >>> 3) {
        case 1: text(meta, "name", r.string()); break;
        case 2: text(meta, "generateName", r.string()); break;
        case 3: text(meta, "namespace", r.string()); break;
        case 5: text(meta, "uid", r.string()); break;
        case 6: text(meta, "resourceVersion", r.string()); break;
        case 7: r.varint(); break; // generation is the server's
        case 11: mapEntry(objectOf(meta, "labels"), r.message(), false); break;
        case 12: mapEntry(objectOf(meta, "annotations"), r.message(), false); break;
        case 13: ownerReference(arrayOf(meta, "ownerReferences").addObject(), r.message()); break;
        case 14: arrayOf(meta, "finalizers").add(r.string()); break;
        default: r.skip(tag); // selfLink, timestamps, grace period, managed fields: the server's
      }
    }
    return meta;
  }

  private static void ownerReference(ObjectNode ref, Reader r) throws IOException {
    while (r.more()) {
      int tag = r.tag();
      switch (tag >>> 3) {
        case 1: text(ref, "kind", r.string()); break;
        case 3: text(ref, "name", r.string()); break;
        case 4: text(ref, "uid", r.string()); break;
        case 5: text(ref, "apiVersion", r.string()); break;
        case 6: ref.put("controller", r.varint() != 0); break;
        case 7: ref.put("blockOwnerDeletion", r.varint() != 0); break;
        default: r.skip(tag);
      }
    }
  }

  /** A map entry message {key = 1, value = 2}; bytes values become base64 like in JSON. */
  private static void mapEntry(ObjectNode target, Reader entry, boolean bytesValue) throws IOException {
    String key = "";
    String value = "";
    while (entry.more()) {
      int tag = entry.tag();
      switch (tag >>> 3) {
        case 1: key = entry.string(); break;
        case 2: value = bytesValue ? Base64.getEncoder().encodeToString(entry.bytes()) : entry.string(); break;
        default: entry.skip(tag);
      }
    }
    target.put(key, value);
  }

  /** gogo-protobuf writes every optional string, empty or not: keep only the non-empty ones. */
  private static void text(ObjectNode node, String field, String value) {
    if (!value.isEmpty()) {
      node.put(field, value);
    }
  }

  private static ObjectNode objectOf(ObjectNode node, String field) {
    return node.has(field) ? (ObjectNode) node.get(field) : node.putObject(field);
  }

  private static ArrayNode arrayOf(ObjectNode node, String field) {
    return node.has(field) ? (ArrayNode) node.get(field) : node.putArray(field);
  }

  /** Reads protobuf wire format from a slice of a byte array. */
  private static final class Reader {
    private final byte[] buffer;
    private int position;
    private final int end;

    Reader(byte[] buffer, int position, int end) {
      this.buffer = buffer;
      this.position = position;
      this.end = end;
    }

    boolean more() {
      return position < end;
    }

    int tag() throws IOException {
      return (int) varint();
    }

    long varint() throws IOException {
      long result = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (position >= end) {
          throw new IOException("truncated protobuf varint");
        }
        byte b = buffer[position++];
        result |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return result;
        }
      }
      throw new IOException("malformed protobuf varint");
    }

    private int length() throws IOException {
      long length = varint();
      if (length < 0 || position + length > end) {
        throw new IOException("truncated protobuf field");
      }
      return (int) length;
    }

    byte[] bytes() throws IOException {
      int length = length();
      byte[] result = Arrays.copyOfRange(buffer, position, position + length);
      position += length;
      return result;
    }

    String string() throws IOException {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    Reader message() throws IOException {
      int length = length();
      Reader sub = new Reader(buffer, position, position + length);
      position += length;
      return sub;
    }

    void skip(int tag) throws IOException {
      switch (tag & 7) {
        case 0: varint(); break;
        case 1: position += 8; break;
        case 2: {
          int length = length(); // not "position += length()": that reads position before length() moves it
          position += length;
          break;
        }
        case 5: position += 4; break;
        default: throw new IOException("unsupported protobuf wire type " + (tag & 7));
      }
      if (position > end) {
        throw new IOException("truncated protobuf field");
      }
    }
  }
}
