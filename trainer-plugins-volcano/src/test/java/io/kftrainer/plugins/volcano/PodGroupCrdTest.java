package io.kftrainer.plugins.volcano;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.kftrainer.plugins.volcano.model.PodGroup;
import io.kftrainer.plugins.volcano.model.PodGroupSpec;
import io.kftrainer.plugins.volcano.model.PodGroupStatus;
import io.kftrainer.plugins.volcano.model.podgroupspec.NetworkTopology;
import io.kftrainer.plugins.volcano.model.podgroupstatus.Conditions;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Yaml;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model generated from the Volcano CRD this jar ships: it names the CRD's resource, and reads and writes
 * PodGroups as Volcano and the API server spell them.
 */
class PodGroupCrdTest {

  private static final CustomResourceDefinition CRD = Fixtures.serialization().unmarshal(
      Fixtures.resource("META-INF/trainer/crds/scheduling.volcano.sh_podgroups.yaml"), CustomResourceDefinition.class);

  @Test
  void theServedCrdIsTheModelsAndItsGroupNamesTheQueueAnnotation() {
    assertThat(CRD.getMetadata().getName()).isEqualTo(HasMetadata.getFullResourceName(PodGroup.class));
    assertThat(VolcanoPlugin.QUEUE_NAME_ANNOTATION).isEqualTo(CRD.getSpec().getGroup() + "/queue-name");
  }

  @Test
  void podGroupRoundTripsThroughYaml() {
    PodGroup podGroup = fullPodGroup();

    String yaml = Yaml.dump(podGroup);
    PodGroup read = Fixtures.serialization().unmarshal(yaml, PodGroup.class);

    assertThat(Yaml.tree(read)).isEqualTo(Yaml.tree(podGroup));
    assertThat(Yaml.tree(podGroup).at("/spec/minResources/cpu").asText()).isEqualTo("2300m");
    assertThat(Yaml.tree(podGroup).at("/spec/networkTopology/mode").asText()).isEqualTo("hard");
    assertThat(Yaml.tree(podGroup).at("/status/conditions/0/lastTransitionTime").asText())
        .isEqualTo("2026-01-01T00:00:00Z");
    assertThat(Fixtures.object(yaml).getApiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
  }

  @Test
  void fieldsOfNewerVolcanoVersionsAreKeptWhenReading() {
    PodGroup read = Fixtures.serialization().unmarshal("""
        apiVersion: scheduling.volcano.sh/v1beta1
        kind: PodGroup
        metadata: {name: job, namespace: ns}
        spec:
          minMember: 2
          queue: q1
          networkTopology: {mode: soft, highestTierName: rack}
        status: {phase: Inqueue, pending: 2}
        """, PodGroup.class);

    assertThat(read.getSpec().getNetworkTopology().getMode()).isEqualTo(NetworkTopology.Mode.SOFT);
    assertThat(read.getStatus().getPhase()).isEqualTo("Inqueue");
    // highestTierAllowed: the model carries the CRD's default, as the API server would have set it
    assertThat(Yaml.tree(read.getSpec())).isEqualTo(Yaml.tree(Map.of("minMember", 2, "queue", "q1",
        "networkTopology", Map.of("mode", "soft", "highestTierAllowed", 1L, "highestTierName", "rack"))));
    assertThat(Yaml.tree(read.getStatus())).isEqualTo(Yaml.tree(Map.of("phase", "Inqueue", "pending", 2)));
  }

  private static PodGroup fullPodGroup() {
    NetworkTopology topology = new NetworkTopology();
    topology.setMode(NetworkTopology.Mode.HARD);
    topology.setHighestTierAllowed(1L);
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(5);
    spec.setMinTaskMember(Map.of("worker", 4));
    spec.setQueue("q1");
    spec.setPriorityClassName("high-priority");
    spec.setPreemptable(false);
    spec.setMinResources(Map.of("cpu", new IntOrString("2300m"), "memory", new IntOrString("3Gi")));
    spec.setNetworkTopology(topology);
    Conditions scheduled = new Conditions();
    scheduled.setType("Scheduled");
    scheduled.setStatus("True");
    scheduled.setTransitionID("t-1");
    scheduled.setLastTransitionTime(ZonedDateTime.parse("2026-01-01T00:00:00Z"));
    scheduled.setReason("Ready");
    scheduled.setMessage("pod group is ready");
    PodGroupStatus status = new PodGroupStatus();
    status.setPhase("Running");
    status.setRunning(5);
    status.setSucceeded(0);
    status.setFailed(0);
    status.setConditions(List.of(scheduled));
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("job");
    podGroup.getMetadata().setNamespace("ns");
    podGroup.setSpec(spec);
    podGroup.setStatus(status);
    return podGroup;
  }
}
