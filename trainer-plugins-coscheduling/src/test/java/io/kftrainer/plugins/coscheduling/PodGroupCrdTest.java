package io.kftrainer.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
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
    assertThat(CRD_NAME).isEqualTo("podgroups.scheduling.x-k8s.io");
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
    JSONSchemaProps schema = version().getSchema().getOpenAPIV3Schema();
    JsonNode podGroup = Yaml.tree(fullPodGroup());

    assertThat(schema.getProperties().get("spec").getProperties().keySet())
        .containsExactlyInAnyOrderElementsOf(fieldNames(podGroup.get("spec")));
    assertThat(schema.getProperties().get("status").getProperties().keySet())
        .containsExactlyInAnyOrderElementsOf(fieldNames(podGroup.get("status")));
  }

  @Test
  void podGroupRoundTripsThroughYaml() {
    PodGroup podGroup = fullPodGroup();

    PodGroup read = Fixtures.serialization().unmarshal(Yaml.dump(podGroup), PodGroup.class);

    assertThat(read).isEqualTo(podGroup);
    assertThat(Fixtures.object(Yaml.dump(podGroup)).getApiVersion()).isEqualTo("scheduling.x-k8s.io/v1alpha1");
  }

  @Test
  void fieldsOfNewerSchedulerVersionsAreIgnoredWhenReading() {
    PodGroup read = Fixtures.serialization().unmarshal("""
        apiVersion: scheduling.x-k8s.io/v1alpha1
        kind: PodGroup
        metadata: {name: job, namespace: ns}
        spec: {minMember: 2, futureField: x}
        status: {phase: Running, scheduled: 2}
        """, PodGroup.class);

    assertThat(read.getSpec()).isEqualTo(new PodGroupSpec().withMinMember(2));
    assertThat(read.getStatus()).isEqualTo(new PodGroupStatus().withPhase("Running"));
  }

  private static CustomResourceDefinitionVersion version() {
    return CRD.getSpec().getVersions().get(0);
  }

  private static PodGroup fullPodGroup() {
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("job");
    podGroup.getMetadata().setNamespace("ns");
    podGroup.setSpec(new PodGroupSpec().withMinMember(3)
        .withMinResources(Map.of("cpu", new Quantity("1250m"), "memory", new Quantity("2560Mi")))
        .withScheduleTimeoutSeconds(30));
    podGroup.setStatus(new PodGroupStatus().withPhase("Running").withOccupiedBy("uid").withRunning(3)
        .withSucceeded(0).withFailed(0).withScheduleStartTime("2026-01-01T00:00:00Z"));
    return podGroup;
  }

  private static List<String> fieldNames(JsonNode node) {
    return node.properties().stream().map(Map.Entry::getKey).toList();
  }
}
