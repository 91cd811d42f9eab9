package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

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
  void refusesOtherKindsAndGarbage() {
    String job = "6b3873000a0f0a0862617463682f763112034a6f62";
    assertThatThrownBy(() -> decode(job)).isInstanceOf(KubernetesProtobuf.UnsupportedException.class)
        .hasMessageContaining("batch/v1 Job");
    assertThatThrownBy(() -> decode("7b7d")).isInstanceOf(KubernetesProtobuf.UnsupportedException.class);
    assertThatThrownBy(() -> decode("6b387300" + "0aff")).hasMessageContaining("truncated");
  }
}
