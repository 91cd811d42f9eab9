package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.kftrainer.framework.Yamls;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodRequestsTest {

  @Test
  void sidecarInitContainersRunBesideTheMainContainersAndOverheadIsAdded() {
    PodSpec pod = Yamls.SERIALIZATION.unmarshal("""
        initContainers:
          - name: sidecar
            restartPolicy: Always
            resources: {requests: {cpu: 100m}}
          - name: migrate
            resources: {requests: {cpu: "3", memory: 1Gi}}
        containers:
          - name: main
            resources: {requests: {cpu: "1"}, limits: {memory: 4Gi}}
        overhead:
          cpu: 50m
        """, PodSpec.class);

    // main 1 + sidecar 0.1 = 1.1 < init peak 3 + 0.1 sidecar = 3.1, plus overhead 0.05; memory only from init.
    assertThat(PodRequests.of(pod)).containsOnly(
        Map.entry("cpu", new Quantity("3150m")),
        Map.entry("memory", new Quantity("1Gi")));
  }
}
