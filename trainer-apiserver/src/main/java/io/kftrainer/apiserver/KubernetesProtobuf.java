package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Decodes the {@code application/vnd.kubernetes.protobuf} request bodies that {@code kubectl create
 * namespace|configmap|secret|serviceaccount|token|role|clusterrole|rolebinding|clusterrolebinding} and
 * {@code kubectl auth can-i|whoami} send (kubectl's typed clients write protobuf and do not fall back to JSON), and the
 * DeleteOptions of typed clients' deletes (helm's, of its release Secrets), into JSON. Only these kinds are understood
 * (their proto field numbers are those of k8s.io/api core/v1, rbac/v1 and authentication/v1 and k8s.io/apimachinery
 * meta/v1); any other kind is refused with 415 by the caller.
 *
 * <p>The wire format is protobuf-java's ({@link CodedInputStream}); the field numbers are written out here because
 * Kubernetes publishes its {@code .proto} files with the Go code only (gogo-protobuf), not as Java messages.
 */
final class KubernetesProtobuf {

  static final List<String> KINDS = List.of("ConfigMap", "Namespace", "Secret", "ServiceAccount");
  /** The body of a DELETE from a typed client (helm deletes its release Secrets so), in either group version. */
  static final String DELETE_OPTIONS = "DeleteOptions";
  /** The body of {@code kubectl create token}: POSTed to {@code serviceaccounts/<name>/token}. */
  static final String TOKEN_REQUEST = "TokenRequest";
  /**
   * The RBAC kinds {@code kubectl create role|clusterrole|rolebinding|clusterrolebinding} writes: how a namespace's
   * user is given its rights (docs/kubeflow-sdk.md). A ClusterRole's {@code aggregationRule} is not read (the
   * server does not aggregate).
   */
  static final List<String> RBAC_KINDS = List.of("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding");
  private static final String RBAC_V1 = "rbac.authorization.k8s.io/v1";
  /**
   * The bodies of {@code kubectl auth can-i} (SelfSubjectAccessReview, with {@code --list} SelfSubjectRulesReview)
   * and {@code kubectl auth whoami} (SelfSubjectReview).
   */
  static final List<String> SELF_REVIEWS = List.of("authorization.k8s.io/v1/SelfSubjectAccessReview",
      "authorization.k8s.io/v1/SelfSubjectRulesReview", "authentication.k8s.io/v1/SelfSubjectReview");
  private static final byte[] MAGIC = {'k', '8', 's', 0};
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Thrown for a body that is not a protobuf envelope of one of {@link #KINDS}. */
  static final class UnsupportedException extends IOException {
    private static final long serialVersionUID = 1L;

    UnsupportedException(String message) {
      super(message);
    }
  }

  /** Reads the fields of a message it knows; {@link #read} skips the others. */
  @FunctionalInterface
  private interface Fields {
    void read(int field, CodedInputStream in) throws IOException;
  }

  private KubernetesProtobuf() {
  }

  static ObjectNode decode(byte[] body) throws IOException {
    if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
      throw new UnsupportedException("not a Kubernetes protobuf envelope");
    }
    // runtime.Unknown: typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2
    CodedInputStream unknown = CodedInputStream.newInstance(body, MAGIC.length, body.length - MAGIC.length);
    ObjectNode object = NODES.objectNode();
    ByteString raw = null;
    for (int tag = unknown.readTag(); tag != 0; tag = unknown.readTag()) {
      switch (WireFormat.getTagFieldNumber(tag)) {
        case 1 -> readMessage(unknown, (field, in) -> {
          switch (field) {
            case 1 -> text(object, "apiVersion", in.readString());
            case 2 -> text(object, "kind", in.readString());
            default -> { }
          }
        });
        case 2 -> raw = unknown.readBytes();
        default -> unknown.skipField(tag);
      }
    }
    String apiVersion = object.path("apiVersion").asText();
    String kind = object.path("kind").asText();
    object.put("apiVersion", apiVersion).put("kind", kind);
    if (kind.equals(DELETE_OPTIONS) && (apiVersion.equals("v1") || apiVersion.equals("meta.k8s.io/v1"))
        && raw != null) {
      read(raw.newCodedInput(), deleteOptions(object));
      return object;
    }
    if (kind.equals(TOKEN_REQUEST) && apiVersion.equals("authentication.k8s.io/v1") && raw != null) {
      read(raw.newCodedInput(), (field, in) -> {
        switch (field) {
          case 1 -> readMessage(in, objectMeta(objectOf(object, "metadata")));
          case 2 -> readMessage(in, tokenRequestSpec(objectOf(object, "spec")));
          default -> { }
        }
      });
      return object;
    }
    if (SELF_REVIEWS.contains(apiVersion + "/" + kind) && raw != null) {
      read(raw.newCodedInput(), (field, in) -> {
        switch (field) {
          case 1 -> readMessage(in, objectMeta(objectOf(object, "metadata")));
          case 2 -> {
            if (!kind.equals("SelfSubjectReview")) { // its field 2 is the server's status
              readMessage(in, kind.equals("SelfSubjectRulesReview") ? rulesReviewSpec(objectOf(object, "spec"))
                  : accessReviewSpec(objectOf(object, "spec")));
            }
          }
          default -> { }
        }
      });
      return object;
    }
    if (RBAC_KINDS.contains(kind) && apiVersion.equals(RBAC_V1) && raw != null) {
      boolean binding = kind.endsWith("Binding");
      read(raw.newCodedInput(), (field, in) -> {
        switch (field) {
          case 1 -> readMessage(in, objectMeta(objectOf(object, "metadata")));
          case 2 -> readMessage(in, binding ? subject(arrayOf(object, "subjects").addObject())
              : policyRule(arrayOf(object, "rules").addObject()));
          case 3 -> {
            if (binding) {
              readMessage(in, roleRef(objectOf(object, "roleRef")));
            }
          }
          default -> { }
        }
      });
      return object;
    }
    if (!KINDS.contains(kind) || !apiVersion.equals("v1") || raw == null) {
      throw new UnsupportedException("protobuf bodies are understood only for v1 " + KINDS + " and " + RBAC_V1 + " "
          + RBAC_KINDS + ", not " + (apiVersion.isEmpty() ? "" : apiVersion + " ") + kind
          + " (and DeleteOptions, TokenRequest, the self reviews of kubectl auth)");
    }
    Fields own = switch (kind) {
      case "ConfigMap" -> configMap(object);
      case "Secret" -> secret(object);
      case "Namespace" -> namespace(object);
      default -> serviceAccount(object);
    };
    read(raw.newCodedInput(), (field, in) -> {
      if (field == 1) {
        readMessage(in, objectMeta(objectOf(object, "metadata")));
      } else {
        own.read(field, in);
      }
    });
    return object;
  }

  /**
   * meta/v1 DeleteOptions: gracePeriodSeconds = 1, preconditions = 2 {uid = 1, resourceVersion = 2},
   * orphanDependents = 3, propagationPolicy = 4, dryRun = 5.
   */
  private static Fields deleteOptions(ObjectNode options) {
    return (field, in) -> {
      switch (field) {
        case 1 -> options.put("gracePeriodSeconds", in.readInt64());
        case 2 -> readMessage(in, (f, preconditions) -> {
          switch (f) {
            case 1 -> text(objectOf(options, "preconditions"), "uid", preconditions.readString());
            case 2 -> text(objectOf(options, "preconditions"), "resourceVersion", preconditions.readString());
            default -> { }
          }
        });
        case 3 -> options.put("orphanDependents", in.readBool());
        case 4 -> text(options, "propagationPolicy", in.readString());
        case 5 -> arrayOf(options, "dryRun").add(in.readString());
        default -> { }
      }
    };
  }

  /**
   * authentication/v1 TokenRequestSpec: audiences = 1, boundObjectRef = 3 {kind = 1, apiVersion = 2, name = 3,
   * uid = 4}, expirationSeconds = 4.
   */
  private static Fields tokenRequestSpec(ObjectNode spec) {
    return (field, in) -> {
      switch (field) {
        case 1 -> arrayOf(spec, "audiences").add(in.readString());
        case 3 -> readMessage(in, (f, ref) -> {
          ObjectNode bound = objectOf(spec, "boundObjectRef");
          switch (f) {
            case 1 -> text(bound, "kind", ref.readString());
            case 2 -> text(bound, "apiVersion", ref.readString());
            case 3 -> text(bound, "name", ref.readString());
            case 4 -> text(bound, "uid", ref.readString());
            default -> { }
          }
        });
        case 4 -> spec.put("expirationSeconds", in.readInt64());
        default -> { }
      }
    };
  }

  /**
   * authorization/v1 SelfSubjectAccessReviewSpec: resourceAttributes = 1 {namespace = 1, verb = 2, group = 3,
   * version = 4, resource = 5, subresource = 6, name = 7}, nonResourceAttributes = 2 {path = 1, verb = 2}. The
   * field and label selectors of resourceAttributes (8, 9) are skipped: the RBAC authorizer does not read them.
   */
  private static Fields accessReviewSpec(ObjectNode spec) {
    return (field, in) -> {
      switch (field) {
        case 1 -> readMessage(in, (f, attributes) -> {
          ObjectNode resource = objectOf(spec, "resourceAttributes");
          switch (f) {
            case 1 -> text(resource, "namespace", attributes.readString());
            case 2 -> text(resource, "verb", attributes.readString());
            case 3 -> text(resource, "group", attributes.readString());
            case 4 -> text(resource, "version", attributes.readString());
            case 5 -> text(resource, "resource", attributes.readString());
            case 6 -> text(resource, "subresource", attributes.readString());
            case 7 -> text(resource, "name", attributes.readString());
            default -> { }
          }
        });
        case 2 -> readMessage(in, (f, attributes) -> {
          ObjectNode nonResource = objectOf(spec, "nonResourceAttributes");
          switch (f) {
            case 1 -> text(nonResource, "path", attributes.readString());
            case 2 -> text(nonResource, "verb", attributes.readString());
            default -> { }
          }
        });
        default -> { }
      }
    };
  }

  /** authorization/v1 SelfSubjectRulesReviewSpec: namespace = 1. */
  private static Fields rulesReviewSpec(ObjectNode spec) {
    return (field, in) -> {
      if (field == 1) {
        text(spec, "namespace", in.readString());
      }
    };
  }

  private static Fields configMap(ObjectNode object) {
    return (field, in) -> {
      switch (field) {
        case 2 -> mapEntry(objectOf(object, "data"), in, false);
        case 3 -> mapEntry(objectOf(object, "binaryData"), in, true);
        case 4 -> object.put("immutable", in.readBool());
        default -> { }
      }
    };
  }

  private static Fields secret(ObjectNode object) {
    return (field, in) -> {
      switch (field) {
        case 2 -> mapEntry(objectOf(object, "data"), in, true);
        case 3 -> text(object, "type", in.readString());
        case 4 -> mapEntry(objectOf(object, "stringData"), in, false);
        case 5 -> object.put("immutable", in.readBool());
        default -> { }
      }
    };
  }

  /** spec = 2 {finalizers = 1}; status is the server's. */
  private static Fields namespace(ObjectNode object) {
    return (field, in) -> {
      if (field == 2) {
        ObjectNode spec = objectOf(object, "spec");
        readMessage(in, (f, specIn) -> {
          if (f == 1) {
            arrayOf(spec, "finalizers").add(specIn.readString());
          }
        });
      }
    };
  }

  /** imagePullSecrets = 3 (LocalObjectReference {name = 1}), automountServiceAccountToken = 4. */
  private static Fields serviceAccount(ObjectNode object) {
    return (field, in) -> {
      switch (field) {
        case 3 -> {
          ObjectNode entry = arrayOf(object, "imagePullSecrets").addObject();
          readMessage(in, (f, ref) -> {
            if (f == 1) {
              text(entry, "name", ref.readString());
            }
          });
        }
        case 4 -> object.put("automountServiceAccountToken", in.readBool());
        default -> { }
      }
    };
  }

  /** rbac/v1 PolicyRule: verbs = 1, apiGroups = 2, resources = 3, resourceNames = 4, nonResourceURLs = 5. */
  private static Fields policyRule(ObjectNode rule) {
    return (field, in) -> {
      String name = switch (field) {
        case 1 -> "verbs";
        case 2 -> "apiGroups";
        case 3 -> "resources";
        case 4 -> "resourceNames";
        case 5 -> "nonResourceURLs";
        default -> null;
      };
      if (name != null) {
        arrayOf(rule, name).add(in.readString()); // "" is a value here: the core API group
      }
    };
  }

  /** rbac/v1 Subject: kind = 1, apiGroup = 2, name = 3, namespace = 4. */
  private static Fields subject(ObjectNode subject) {
    return (field, in) -> {
      switch (field) {
        case 1 -> text(subject, "kind", in.readString());
        case 2 -> text(subject, "apiGroup", in.readString());
        case 3 -> text(subject, "name", in.readString());
        case 4 -> text(subject, "namespace", in.readString());
        default -> { }
      }
    };
  }

  /** rbac/v1 RoleRef: apiGroup = 1, kind = 2, name = 3. */
  private static Fields roleRef(ObjectNode ref) {
    return (field, in) -> {
      switch (field) {
        case 1 -> text(ref, "apiGroup", in.readString());
        case 2 -> text(ref, "kind", in.readString());
        case 3 -> text(ref, "name", in.readString());
        default -> { }
      }
    };
  }

  /** Selflink, generation, timestamps, grace period and managed fields are the server's: skipped. */
  private static Fields objectMeta(ObjectNode meta) {
    return (field, in) -> {
      switch (field) {
        case 1 -> text(meta, "name", in.readString());
        case 2 -> text(meta, "generateName", in.readString());
        case 3 -> text(meta, "namespace", in.readString());
        case 5 -> text(meta, "uid", in.readString());
        case 6 -> text(meta, "resourceVersion", in.readString());
        case 11 -> mapEntry(objectOf(meta, "labels"), in, false);
        case 12 -> mapEntry(objectOf(meta, "annotations"), in, false);
        case 13 -> readMessage(in, ownerReference(arrayOf(meta, "ownerReferences").addObject()));
        case 14 -> arrayOf(meta, "finalizers").add(in.readString());
        default -> { }
      }
    };
  }

  private static Fields ownerReference(ObjectNode ref) {
    return (field, in) -> {
      switch (field) {
        case 1 -> text(ref, "kind", in.readString());
        case 3 -> text(ref, "name", in.readString());
        case 4 -> text(ref, "uid", in.readString());
        case 5 -> text(ref, "apiVersion", in.readString());
        case 6 -> ref.put("controller", in.readBool());
        case 7 -> ref.put("blockOwnerDeletion", in.readBool());
        default -> { }
      }
    };
  }

  /** A map entry message {key = 1, value = 2}; bytes values become base64 like in JSON. */
  private static void mapEntry(ObjectNode target, CodedInputStream in, boolean bytesValue) throws IOException {
    ObjectNode entry = NODES.objectNode();
    readMessage(in, (field, entryIn) -> {
      switch (field) {
        case 1 -> entry.put("key", entryIn.readString());
        case 2 -> entry.put("value", bytesValue
            ? Base64.getEncoder().encodeToString(entryIn.readByteArray()) : entryIn.readString());
        default -> { }
      }
    });
    target.put(entry.path("key").asText(), entry.path("value").asText());
  }

  /** Reads the message {@code in} holds, to its end: {@code fields} reads those it knows, the others are skipped. */
  private static void read(CodedInputStream in, Fields fields) throws IOException {
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int before = in.getTotalBytesRead();
      fields.read(WireFormat.getTagFieldNumber(tag), in);
      if (in.getTotalBytesRead() == before) {
        in.skipField(tag);
      }
    }
  }

  /** Reads the embedded message of the current (length-delimited) field. */
  private static void readMessage(CodedInputStream in, Fields fields) throws IOException {
    int limit = in.pushLimit(in.readRawVarint32());
    read(in, fields);
    in.popLimit(limit);
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
}
