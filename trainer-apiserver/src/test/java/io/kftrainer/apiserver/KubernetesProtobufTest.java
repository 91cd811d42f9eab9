package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedOutputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KubernetesProtobufTest {

  /** Bodies as kubectl 1.32 sends them for {@code kubectl create ... -n team-a}. */
  private static final String NAMESPACE = "6b3873000a0f0a02763112094e616d657370616365121e0a160a067465616d2d6112001a00"
      + "22002a003200380042001200" + "1a020a001a002200";
  private static final String SECRET = "6b3873000a0c0a027631120653656372657412310a180a02733212001a067465616d2d61"
      + "22002a0032003800420012060a016b1201761a0d6578616d706c652e636f6d2f741a002200";
  private static final String CONFIG_MAP = "6b3873000a0f0a0276311209436f6e6669674d617012220a180a02633212001a067465"
      + "616d2d6122002a0032003800420012060a01611201311a002200";

  private static ObjectNode decode(String hex) throws Exception {
    return KubernetesProtobuf.decode(HexFormat.of().parseHex(hex));
  }

  @Test
  void decodesWhatKubectlCreateSends() throws Exception {
    assertThat(decode(NAMESPACE).toString())
        .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"},\"spec\":{}}");
    assertThat(decode(SECRET).toString()).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
        + "\"metadata\":{\"name\":\"s2\",\"namespace\":\"team-a\"},\"data\":{\"k\":\"dg==\"},\"type\":\"example.com/t\"}");
    assertThat(decode(CONFIG_MAP).toString()).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
        + "\"metadata\":{\"name\":\"c2\",\"namespace\":\"team-a\"},\"data\":{\"a\":\"1\"}}");
  }

  @Test
  void decodesTheDeleteOptionsOfTypedClients() throws Exception {
    // TypeMeta {v1, DeleteOptions}, raw {preconditions {uid: u1}, propagationPolicy: Background}, as client-go's
    // typed clients (helm's release storage) send with a DELETE
    String deleteOptions = "6b387300" + "0a13" + "0a027631" + "120d44656c6574654f7074696f6e73"
        + "1212" + "12040a027531" + "220a4261636b67726f756e64";
    assertThat(decode(deleteOptions).toString()).isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\","
        + "\"preconditions\":{\"uid\":\"u1\"},\"propagationPolicy\":\"Background\"}");
  }

  @Test
  void decodesEveryFieldItKnowsAndSkipsTheOthersOfEveryWireType() throws Exception {
    byte[] ownerReference = message(out -> {
      out.writeString(1, "TrainJob");
      out.writeString(3, "mnist");
      out.writeString(4, "u-1");
      out.writeString(5, "trainer.kubeflow.org/v1alpha1");
      out.writeBool(6, true);
      out.writeBool(7, false);
    });
    byte[] metadata = message(out -> {
      out.writeString(1, "builder");
      out.writeString(3, "team-a");
      out.writeInt64(7, 3); // generation: the server's
      out.writeByteArray(11, entry("app", "train"));
      out.writeByteArray(13, ownerReference);
      out.writeString(14, "example.com/keep");
      out.writeFixed32(30, 7); // fields this server does not know, of each wire type
      out.writeFixed64(31, 7);
      out.writeByteArray(32, new byte[] {1, 2});
    });
    byte[] serviceAccount = message(out -> {
      out.writeByteArray(1, metadata);
      out.writeByteArray(3, message(ref -> ref.writeString(1, "registry-a")));
      out.writeByteArray(3, message(ref -> ref.writeString(1, "registry-b")));
      out.writeBool(4, false);
    });

    assertThat(KubernetesProtobuf.decode(envelope("v1", "ServiceAccount", serviceAccount)).toString())
        .isEqualTo("{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"builder\","
            + "\"namespace\":\"team-a\",\"labels\":{\"app\":\"train\"},\"ownerReferences\":[{\"kind\":\"TrainJob\","
            + "\"name\":\"mnist\",\"uid\":\"u-1\",\"apiVersion\":\"trainer.kubeflow.org/v1alpha1\",\"controller\":true,"
            + "\"blockOwnerDeletion\":false}],\"finalizers\":[\"example.com/keep\"]},\"imagePullSecrets\":[{\"name\":"
            + "\"registry-a\"},{\"name\":\"registry-b\"}],\"automountServiceAccountToken\":false}");
  }

  @Test
  void decodesDeleteOptionsOfMetaV1WithAZeroGracePeriodAndADryRun() throws Exception {
    byte[] options = message(out -> {
      out.writeInt64(1, 0);
      out.writeBool(3, false);
      out.writeString(5, "All");
    });

    assertThat(KubernetesProtobuf.decode(envelope("meta.k8s.io/v1", "DeleteOptions", options)).toString())
        .isEqualTo("{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"DeleteOptions\",\"gracePeriodSeconds\":0,"
            + "\"orphanDependents\":false,\"dryRun\":[\"All\"]}");
  }

  /** {@code kubectl create token NAME --duration=5m --audience=a --audience=b}'s body, bound to a pod. */
  @Test
  void decodesTheTokenRequestOfKubectlCreateToken() throws Exception {
    byte[] spec = message(out -> {
      out.writeString(1, "a");
      out.writeString(1, "b");
      out.writeByteArray(3, message(ref -> {
        ref.writeString(1, "Pod");
        ref.writeString(2, "v1");
        ref.writeString(3, "worker-0");
        ref.writeString(4, "");
      }));
      out.writeInt64(4, 300);
    });
    byte[] request = message(out -> {
      out.writeByteArray(1, message(meta -> meta.writeString(1, "")));
      out.writeByteArray(2, spec);
      out.writeByteArray(3, message(status -> status.writeString(1, "")));
    });

    assertThat(KubernetesProtobuf.decode(envelope("authentication.k8s.io/v1", "TokenRequest", request)).toString())
        .isEqualTo("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"metadata\":{},"
            + "\"spec\":{\"audiences\":[\"a\",\"b\"],\"boundObjectRef\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
            + "\"name\":\"worker-0\"},\"expirationSeconds\":300}}");
  }

  /**
   * {@code kubectl create rolebinding alice -n team-a --clusterrole=kubeflow-trainer-edit
   * --serviceaccount=team-a:alice}, and {@code kubectl create role reader --verb=get,list
   * --resource=pods,trainjobs.trainer.kubeflow.org}: how a namespace's user gets its rights (docs/kubeflow-sdk.md).
   * gogo-protobuf writes the empty strings too.
   */
  @Test
  void decodesTheRbacObjectsOfKubectlCreate() throws Exception {
    byte[] binding = message(out -> {
      out.writeByteArray(1, message(meta -> {
        meta.writeString(1, "alice");
        meta.writeString(3, "team-a");
      }));
      out.writeByteArray(2, message(subject -> {
        subject.writeString(1, "ServiceAccount");
        subject.writeString(2, "");
        subject.writeString(3, "alice");
        subject.writeString(4, "team-a");
      }));
      out.writeByteArray(2, message(subject -> {
        subject.writeString(1, "Group");
        subject.writeString(2, "rbac.authorization.k8s.io");
        subject.writeString(3, "ml-team");
        subject.writeString(4, "");
      }));
      out.writeByteArray(3, message(ref -> {
        ref.writeString(1, "rbac.authorization.k8s.io");
        ref.writeString(2, "ClusterRole");
        ref.writeString(3, "kubeflow-trainer-edit");
      }));
    });
    byte[] role = message(out -> {
      out.writeByteArray(1, message(meta -> meta.writeString(1, "reader")));
      out.writeByteArray(2, message(rule -> {
        rule.writeString(1, "get");
        rule.writeString(1, "list");
        rule.writeString(2, "");
        rule.writeString(3, "pods");
      }));
      out.writeByteArray(2, message(rule -> {
        rule.writeString(1, "get");
        rule.writeString(2, "trainer.kubeflow.org");
        rule.writeString(3, "trainjobs");
        rule.writeString(4, "mnist");
      }));
      out.writeByteArray(3, message(aggregation -> aggregation.writeString(1, "ignored")));
    });

    String expectedBinding = "\"metadata\":{\"name\":\"alice\",\"namespace\":\"team-a\"},"
        + "\"subjects\":[{\"kind\":\"ServiceAccount\",\"name\":\"alice\",\"namespace\":\"team-a\"},"
        + "{\"kind\":\"Group\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"ml-team\"}],"
        + "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\","
        + "\"name\":\"kubeflow-trainer-edit\"}}";
    assertThat(KubernetesProtobuf.decode(envelope("rbac.authorization.k8s.io/v1", "RoleBinding", binding))
        .toString()).isEqualTo("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
            + expectedBinding);
    assertThat(KubernetesProtobuf.decode(envelope("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", binding))
        .toString()).isEqualTo("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRoleBinding\","
            + expectedBinding);
    String expectedRules = "\"metadata\":{\"name\":\"reader\"},\"rules\":[{\"verbs\":[\"get\",\"list\"],"
        + "\"apiGroups\":[\"\"],\"resources\":[\"pods\"]},{\"verbs\":[\"get\"],\"apiGroups\":"
        + "[\"trainer.kubeflow.org\"],\"resources\":[\"trainjobs\"],\"resourceNames\":[\"mnist\"]}]}";
    assertThat(KubernetesProtobuf.decode(envelope("rbac.authorization.k8s.io/v1", "Role", role)).toString())
        .isEqualTo("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\"," + expectedRules);
    assertThat(KubernetesProtobuf.decode(envelope("rbac.authorization.k8s.io/v1", "ClusterRole", role)).toString())
        .isEqualTo("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
            + expectedRules);
  }

  @Test
  void anEmbeddedMessageLongerThanItsParentIsTruncated() throws Exception {
    byte[] secret = message(out -> {
      out.writeTag(1, 2); // metadata, length-delimited
      out.writeUInt32NoTag(100); // but only two bytes follow
      out.writeString(1, "");
    });

    assertThatThrownBy(() -> KubernetesProtobuf.decode(envelope("v1", "Secret", secret)))
        .isInstanceOf(IOException.class).hasMessageContaining("truncated");
  }

  @Test
  void refusesOtherKindsAndGarbage() {
    String job = "6b3873000a0f0a0862617463682f763112034a6f62";
    assertThatThrownBy(() -> decode(job)).isInstanceOf(KubernetesProtobuf.UnsupportedException.class)
        .hasMessageContaining("batch/v1 Job");
    assertThatThrownBy(() -> decode("7b7d")).isInstanceOf(KubernetesProtobuf.UnsupportedException.class);
    assertThatThrownBy(() -> decode("6b387300" + "0aff")).hasMessageContaining("truncated");
  }

  @FunctionalInterface
  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  /** A message as gogo-protobuf writes it, written with protobuf-java. */
  private static byte[] message(Fields fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    fields.write(out);
    out.flush();
    return bytes.toByteArray();
  }

  private static byte[] entry(String key, String value) throws IOException {
    return message(out -> {
      out.writeString(1, key);
      out.writeString(2, value);
    });
  }

  /** The runtime.Unknown envelope after the magic {@code k8s\0}. */
  private static byte[] envelope(String apiVersion, String kind, byte[] raw) throws IOException {
    byte[] unknown = message(out -> {
      out.writeByteArray(1, message(typeMeta -> {
        typeMeta.writeString(1, apiVersion);
        typeMeta.writeString(2, kind);
      }));
      out.writeByteArray(2, raw);
    });
    byte[] body = new byte[unknown.length + 4];
    System.arraycopy(new byte[] {'k', '8', 's', 0}, 0, body, 0, 4);
    System.arraycopy(unknown, 0, body, 4, unknown.length);
    return body;
  }
}
