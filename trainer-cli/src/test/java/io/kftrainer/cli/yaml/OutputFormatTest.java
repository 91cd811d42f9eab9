package io.kftrainer.cli.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutputFormatTest {

  private static final ConfigMap CONFIG_MAP = new ConfigMapBuilder()
      .withNewMetadata().withName("settings").withNamespace("default").endMetadata()
      .withData(Map.of("hostfile", "a slots=1\nb slots=1\n"))
      .build();
  private static final ConfigMap QUOTED = new ConfigMapBuilder()
      .withNewMetadata().withName("quoted").endMetadata()
      .withData(Map.of("flag", "true"))
      .build();

  @Test
  void yamlIsOneDocumentPerObjectWithLiteralBlocksAndQuotesOnlyWhereNeeded() {
    assertThat(OutputFormat.YAML.format(List.of(CONFIG_MAP, QUOTED))).isEqualTo("""
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: settings
          namespace: default
        data:
          hostfile: |
            a slots=1
            b slots=1
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: quoted
        data:
          flag: "true"
        """);
  }

  @Test
  void jsonIsAV1List() {
    assertThat(OutputFormat.JSON.format(List.of(QUOTED))).isEqualTo("""
        {
          "apiVersion" : "v1",
          "kind" : "List",
          "items" : [ {
            "apiVersion" : "v1",
            "kind" : "ConfigMap",
            "metadata" : {
              "name" : "quoted"
            },
            "data" : {
              "flag" : "true"
            }
          } ]
        }
        """);
  }

  @Test
  void noObjectsPrintNothingAsYamlAndAnEmptyListAsJson() {
    List<HasMetadata> none = List.of();

    assertThat(OutputFormat.YAML.format(none)).isEmpty();
    assertThat(OutputFormat.JSON.format(none)).contains("\"items\" : [ ]");
  }
}
