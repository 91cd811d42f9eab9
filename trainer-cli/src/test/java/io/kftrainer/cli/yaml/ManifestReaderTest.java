package io.kftrainer.cli.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ManifestReaderTest {

  @Test
  void emptyDocumentsAreSkippedAndTheOthersNumberedInOrder() {
    List<Manifest> manifests = ManifestReader.read("""
        ---
        # only a comment
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: first}
        ---
        ---
        {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "second", "namespace": "ns"}}
        """, "in.yaml");

    assertThat(manifests).extracting(Manifest::location, Manifest::kind, Manifest::namespace, Manifest::name)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("in.yaml, document 1", "ConfigMap", "", "first"),
            org.assertj.core.groups.Tuple.tuple("in.yaml, document 2", "Secret", "ns", "second"));
  }

  static Stream<Arguments> notObjects() {
    return Stream.of(
        Arguments.of("a scalar document", "just text", "not a Kubernetes object (a YAML mapping)"),
        Arguments.of("a list document", "- a\n- b", "not a Kubernetes object (a YAML mapping)"),
        Arguments.of("a mapping without kind", "apiVersion: v1",
            "not a Kubernetes object: apiVersion and kind are required"));
  }

  @ParameterizedTest(name = "{0} is not a Kubernetes object")
  @MethodSource("notObjects")
  void check(String name, String text, String message) {
    Manifest manifest = ManifestReader.read(text, "in.yaml").get(0);

    assertThatThrownBy(manifest::check).isInstanceOf(ManifestException.class)
        .hasMessage("in.yaml, document 1: " + message);
  }

  @Test
  void anchorsAliasesAndMergeKeysResolveAsKubectlResolvesThem() {
    List<Manifest> manifests = ManifestReader.read("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: anchored}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer:
            resourcesPerNode:
              requests: &res {cpu: "2", memory: 1Gi}
              limits: *res
            env:
              - &base {name: A, value: "1"}
              - <<: *base
                name: B
              - <<: [{name: C, value: "3"}, {value: "never"}]
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: second}
        data: {res: "*res is only text here"}
        """, "in.yaml");

    TrainJob trainJob = manifests.get(0).as(TrainJob.class);
    assertThat(trainJob.getSpec().getTrainer().getResourcesPerNode().getLimits())
        .isEqualTo(trainJob.getSpec().getTrainer().getResourcesPerNode().getRequests())
        .containsOnlyKeys("cpu", "memory");
    assertThat(trainJob.getSpec().getTrainer().getEnv())
        .extracting(e -> e.getName() + "=" + e.getValue()).containsExactly("A=1", "B=1", "C=3");
    assertThat(manifests.get(1).tree().at("/data/res").asText()).isEqualTo("*res is only text here");
  }

  @Test
  void anUndefinedAliasIsAnError() {
    assertThatThrownBy(() -> ManifestReader.read("a: *nowhere\n", "in.yaml"))
        .isInstanceOf(ManifestException.class)
        .hasMessage("in.yaml: invalid YAML at line 1, column 4: found undefined alias nowhere");
  }

  @Test
  void aQuotedMergeKeyIsAnOrdinaryKey() {
    JsonNode tree = ManifestReader.read("base: &b {x: 1}\nplain: {<<: *b}\nquoted: {\"<<\": *b}\n", "in.yaml").get(0)
        .tree();

    assertThat(tree.get("plain").toString()).isEqualTo("{\"x\":1}");
    assertThat(tree.get("quoted").toString()).isEqualTo("{\"<<\":{\"x\":1}}");
  }

  @Test
  void withoutAnchorsADocumentReadsAsJacksonsYamlFactoryReadsIt() throws Exception {
    String text = """
        plain:
          int: 12
          octal: 0755
          hex: 0x1F
          float: 1.5e3
          yes: yes
          on: off
          y: n
          date: 2001-12-14
          sexagesimal: 1:30
          tilde: ~
          empty:
          big: 123456789012345678901234567890
        quoted: {int: "12", tagged: !!str 12, typed: !!int "12", custom: !thing text, single: 'yes', none: }
        block: |
          two
          lines
        list: [1, "1", true, null]
        """;

    assertThat(ManifestReader.read(text, "in.yaml").get(0).tree())
        .isEqualTo(new ObjectMapper(YAMLFactory.builder().build()).readTree(text));
  }

  @Test
  void anAliasBombIsRefusedByTheNumberOfAliases() {
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (char level = 'b'; level <= 'h'; level++) {
      char previous = (char) (level - 1);
      bomb.append(level).append(": &").append(level).append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(10, "*" + previous))).append("]\n");
    }

    assertThatThrownBy(() -> ManifestReader.read(bomb.toString(), "bomb.yaml"))
        .isInstanceOf(ManifestException.class)
        .hasMessageStartingWith("bomb.yaml: invalid YAML")
        .hasMessageContaining("Number of aliases for non-scalar nodes exceeds the specified max=50");
  }

  @Test
  void anAliasBombWithinTheNumberOfAliasesIsRefusedByItsExpansion() {
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x]\n");
    for (char level = 'b'; level <= 'j'; level++) { // 9 levels of 5 aliases: 45 aliases, 5^10 nodes
      char previous = (char) (level - 1);
      bomb.append(level).append(": &").append(level).append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(5, "*" + previous))).append("]\n");
    }

    assertThatThrownBy(() -> ManifestReader.read(bomb.toString(), "bomb.yaml"))
        .isInstanceOf(ManifestException.class)
        .hasMessage("bomb.yaml: invalid YAML: aliases expand the document by more than 1000000 nodes");
  }

  @Test
  void aRecursiveAliasAndTooDeepANestingAreRefused() {
    assertThatThrownBy(() -> ManifestReader.read("a: &a [1, *a]\n", "in.yaml"))
        .isInstanceOf(ManifestException.class)
        .hasMessage("in.yaml: invalid YAML: found a recursive alias *a: it contains itself");
    for (int depth : List.of(1001, 3000)) {
      assertThatThrownBy(() -> ManifestReader.read("[".repeat(depth) + "]".repeat(depth), "in.yaml"))
          .isInstanceOf(ManifestException.class)
          .hasMessageStartingWith("in.yaml: invalid YAML")
          .hasMessageContainingAll("1000")
          .message().containsIgnoringCase("nesting depth");
    }
  }

  @Test
  void invalidYamlIsReportedOnOneLineWithThePosition() {
    assertThatThrownBy(() -> ManifestReader.read("a: b\n c: d\n", "in.yaml"))
        .isInstanceOf(ManifestException.class)
        .hasMessage("in.yaml: invalid YAML at line 2, column 3: mapping values are not allowed here");
  }

  @Test
  void fieldsTheModelDoesNotKeepAreUnknownButEmptyValuesAreNot() {
    Manifest manifest = ManifestReader.read("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: job, labels: {}}
        spec:
          runtimeRef: {name: torch, colour: blue}
          trainer:
            env: []
            numNodes: 2
            nodes: 3
          runtimePatches:
            - manager: example.com/a
              extra: null
            - manager: example.com/b
              extra: yes
        """, "in.yaml").get(0);

    assertThat(manifest.unknownFields(manifest.as(TrainJob.class)))
        .containsExactly("spec.runtimeRef.colour", "spec.trainer.nodes", "spec.runtimePatches[1].extra");
  }

  @Test
  void aValueOfTheWrongTypeNamesTheFieldAndTheExpectedType() {
    Manifest manifest = ManifestReader.read("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: job}
        spec:
          suspend: [true]
        """, "in.yaml").get(0);

    assertThatThrownBy(() -> manifest.as(TrainJob.class)).isInstanceOf(ManifestException.class)
        .hasMessage("in.yaml, document 1: spec.suspend: Invalid value: [true]: must be of type boolean");
  }
}
