package io.kftrainer.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.kftrainer.plugins.coscheduling.model.PodGroup;
import io.kftrainer.plugins.coscheduling.model.PodGroupSpec;
import io.kftrainer.plugins.coscheduling.model.PodGroupStatus;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Yaml;
import java.time.ZonedDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model generated from the scheduler-plugins CRD this jar ships: it names the CRD's resource, and reads and
 * writes PodGroups as the scheduler and the API server spell them.
 */
class PodGroupCrdTest {

  private static final CustomResourceDefinition CRD = Fixtures.serialization().unmarshal(
      Fixtures.resource("META-INF/trainer/crds/scheduling.x-k8s.io_podgroups.yaml"), CustomResourceDefinition.class);

  @Test
  void theServedCrdIsTheModelsAndItsGroupNamesThePodGroupLabel() {
    assertThat(CRD.getMetadata().getName()).isEqualTo(HasMetadata.getFullResourceName(PodGroup.class));
    assertThat(CoschedulingPlugin.POD_GROUP_LABEL).isEqualTo(CRD.getSpec().getGroup() + "/pod-group");
  }

  @Test
  void podGroupRoundTripsThroughYaml() {
    PodGroup podGroup = fullPodGroup();

    String yaml = Yaml.dump(podGroup);
    PodGroup read = Fixtures.serialization().unmarshal(yaml, PodGroup.class);

    assertThat(Yaml.tree(read)).isEqualTo(Yaml.tree(podGroup));
    assertThat(Yaml.tree(podGroup).at("/spec/minResources/cpu").asText()).isEqualTo("1250m");
    assertThat(Yaml.tree(podGroup).at("/status/scheduleStartTime").asText()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(Fixtures.object(yaml).getApiVersion()).isEqualTo("scheduling.x-k8s.io/v1alpha1");
  }

  @Test
  void fieldsOfNewerSchedulerVersionsAreKeptWhenReading() {
    PodGroup read = Fixtures.serialization().unmarshal("""
        apiVersion: scheduling.x-k8s.io/v1alpha1
        kind: PodGroup
        metadata: {name: job, namespace: ns}
        spec: {minMember: 2, futureField: x}
        status: {phase: Running, scheduled: 2}
        """, PodGroup.class);

    assertThat(read.getSpec().getMinMember()).isEqualTo(2);
    assertThat(read.getStatus().getPhase()).isEqualTo("Running");
    assertThat(Yaml.tree(read.getSpec())).isEqualTo(Yaml.tree(Map.of("minMember", 2, "futureField", "x")));
    assertThat(Yaml.tree(read.getStatus())).isEqualTo(Yaml.tree(Map.of("phase", "Running", "scheduled", 2)));
  }

  private static PodGroup fullPodGroup() {
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(3);
    spec.setMinResources(Map.of("cpu", new IntOrString("1250m"), "memory", new IntOrString("2560Mi")));
    spec.setScheduleTimeoutSeconds(30);
    PodGroupStatus status = new PodGroupStatus();
    status.setPhase("Running");
    status.setOccupiedBy("uid");
    status.setRunning(3);
    status.setSucceeded(0);
    status.setFailed(0);
    status.setScheduleStartTime(ZonedDateTime.parse("2026-01-01T00:00:00Z"));
    PodGroup podGroup = new PodGroup();
    podGroup.getMetadata().setName("job");
    podGroup.getMetadata().setNamespace("ns");
    podGroup.setSpec(spec);
    podGroup.setStatus(status);
    return podGroup;
  }
}
