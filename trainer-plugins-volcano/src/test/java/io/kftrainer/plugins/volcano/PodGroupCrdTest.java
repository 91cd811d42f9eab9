package io.kftrainer.plugins.volcano;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hand-written CRD shipped for local mode and the hand-written model must describe the same resource. */
class PodGroupCrdTest {

  private static final String CRD_NAME = HasMetadata.getFullResourceName(PodGroup.class);
  private static final CustomResourceDefinition CRD = Fixtures.serialization().unmarshal(
      Fixtures.resource("META-INF/trainer/crds/" + CRD_NAME + ".yaml"), CustomResourceDefinition.class);

  @Test
  void crdNamesTheModelsGroupVersionKindAndScope() {
    assertThat(CRD_NAME).isEqualTo("podgroups.scheduling.volcano.sh");
    assertThat(CRD.getMetadata().getName()).isEqualTo(CRD_NAME);
    assertThat(CRD.getSpec().getGroup()).isEqualTo(HasMetadata.getGroup(PodGroup.class));
    assertThat(CRD.getSpec().getNames().getKind()).isEqualTo(HasMetadata.getKind(PodGroup.class));
    assertThat(CRD.getSpec().getNames().getPlural()).isEqualTo(HasMetadata.getPlural(PodGroup.class));
    assertThat(CRD.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(CRD.getSpec().getVersions()).singleElement().satisfies(version -> {
      assertThat(version.getName()).isEqualTo(HasMetadata.getVersion(PodGroup.class));
      assertThat(version.getServed()).isTrue();
      assertThat(version.getStorage()).isTrue();
      assertThat(version.getSubresources().getStatus()).isNotNull();
    });
  }

  @Test
  void schemaHasEveryFieldOfTheModel() {
    JSONSchemaProps schema = CRD.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    JSONSchemaProps spec = schema.getProperties().get("spec");
    JSONSchemaProps status = schema.getProperties().get("status");
    JsonNode podGroup = Yaml.tree(fullPodGroup());

    assertThat(spec.getProperties().keySet()).containsExactlyInAnyOrderElementsOf(fieldNames(podGroup.get("spec")));
    assertThat(spec.getProperties().get("networkTopology").getProperties().keySet())
        .containsExactlyInAnyOrderElementsOf(fieldNames(podGroup.get("spec").get("networkTopology")));
    assertThat(status.getProperties().keySet())
        .containsExactlyInAnyOrderElementsOf(fieldNames(podGroup.get("status")));
    assertThat(status.getProperties().get("conditions").getItems().getSchema().getProperties().keySet())
        .containsExactlyInAnyOrderElementsOf(fieldNames(podGroup.get("status").get("conditions").get(0)));
  }

  @Test
  void podGroupRoundTripsThroughYaml() {
    PodGroup podGroup = fullPodGroup();

    PodGroup read = Fixtures.serialization().unmarshal(Yaml.dump(podGroup), PodGroup.class);

    assertThat(read).isEqualTo(podGroup);
    assertThat(Fixtures.object(Yaml.dump(podGroup)).getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
  }

  @Test
  void fieldsOfNewerVolcanoVersionsAreIgnoredWhenReading() {
    PodGroup read = Fixtures.serialization().unmarshal("""
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: job, namespace: ns}
        spec:
          minMember: 2
          preemptable: false
          networkTopology: {mode: soft, highestTierName: rack}
        status: {phase: Inqueue, pending: 2}
        """, PodGroup.class);

    assertThat(read.getSpec()).isEqualTo(new PodGroupSpec().withMinMember(2)
        .withNetworkTopology(new NetworkTopologySpec().withMode("soft")));
    assertThat(read.getStatus()).isEqualTo(new PodGroupStatus().withPhase("Inqueue"));
  }

  private static PodGroup fullPodGroup() {
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("job");
    podGroup.getMetadata().setNamespace("ns");
    podGroup.setSpec(new PodGroupSpec().withMinMember(5)
        .withMinTaskMember(Map.of("worker", 4))
        .withQueue("q1")
        .withPriorityClassName("high-priority")
        .withMinResources(Map.of("cpu", new Quantity("2300m"), "memory", new Quantity("3Gi")))
        .withNetworkTopology(new NetworkTopologySpec().withMode("hard").withHighestTierAllowed(1)));
    podGroup.setStatus(new PodGroupStatus().withPhase("Running").withRunning(5).withSucceeded(0).withFailed(0)
        .withConditions(List.of(new PodGroupCondition().withType("Scheduled").withStatus("True")
            .withTransitionID("t-1").withLastTransitionTime("2026-01-01T00:00:00Z").withReason("Ready")
            .withMessage("pod group is ready"))));
    return podGroup;
  }

  private static List<String> fieldNames(JsonNode node) {
    return node.properties().stream().map(Map.Entry::getKey).toList();
  }
}
