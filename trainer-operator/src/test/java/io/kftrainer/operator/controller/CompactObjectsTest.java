package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/** Compacting a cached object changes its memory layout, never its JSON nor its unknown fields. */
class CompactObjectsTest {

  private static final KubernetesSerialization SERIALIZATION = Fixtures.serialization();

  @Test
  void everyTestObjectSerializesAsBeforeOnceCompacted() {
    for (HasMetadata object : Fixtures.objects(Fixtures.resource("controller/runtimes.yaml"))) {
      String before = SERIALIZATION.asJson(object);

      String after = SERIALIZATION.asJson(CompactObjects.compact(object));

      assertThat(after).isEqualTo(before);
    }
  }

  @Test
  void unknownFieldsAreKeptAndStringsShared() {
    String json = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"namespace\":\"ns\","
        + "\"futureField\":\"kept\"},\"data\":{\"runtime\":\"torch\"}}";

    ConfigMap first = CompactObjects.compact(SERIALIZATION.unmarshal(json, ConfigMap.class));
    ConfigMap second = CompactObjects.compact(SERIALIZATION.unmarshal(json, ConfigMap.class));

    assertThat(SERIALIZATION.asJson(first)).contains("\"futureField\":\"kept\"");
    assertThat(first.getData().get("runtime")).isSameAs(second.getData().get("runtime"));
    assertThat(first.getMetadata().getFinalizers()).isSameAs(second.getMetadata().getFinalizers()).isEmpty();
  }
}
