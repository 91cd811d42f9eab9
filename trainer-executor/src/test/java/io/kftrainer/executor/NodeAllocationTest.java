package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Admission as kube-scheduler's resource fit and the device plugin's GPU allocation: effective requests, the
 * scheduler's message, distinct GPUs per container, release; and the GPUs nvidia-smi lists.
 */
class NodeAllocationTest {

  private static final List<Gpu> TWO_GPUS = List.of(new Gpu(0, "GPU-a", "H100", "81559 MiB"),
      new Gpu(1, "GPU-b", "H100", "81559 MiB"));
  private static final long GI = 1024L * 1024 * 1024;

  @Test
  void effectiveRequestsAreTheLargerOfTheContainersSumAndTheLargestInitContainer() {
    PodSpec spec = spec("""
        initContainers:
        - {name: init, resources: {requests: {cpu: "3", memory: 1Gi}}}
        containers:
        - {name: a, resources: {requests: {cpu: "1", memory: 2Gi}}}
        - {name: b, resources: {requests: {cpu: 500m}, limits: {nvidia.com/gpu: "1", memory: 1Gi}}}
        """);

    assertThat(PodRequests.of(spec)).isEqualTo(Map.of("cpu", new BigDecimal("3"),
        "memory", BigDecimal.valueOf(3 * GI), "nvidia.com/gpu", BigDecimal.ONE));
  }

  @Test
  void aPodThatDoesNotFitNowIsRefusedWithTheSchedulersMessageListingEveryShortResource() {
    NodeAllocation node = new NodeAllocation(new NodeCapacity(4, 8 * GI, 100 * GI, 10, TWO_GPUS));
    assertThat(node.admit("first", spec("""
        containers:
        - {name: a, resources: {requests: {cpu: "3"}, limits: {nvidia.com/gpu: "2"}}}
        """)).admitted()).isTrue();

    NodeAllocation.Decision refused = node.admit("uid", spec("""
        containers:
        - {name: a, resources: {requests: {cpu: "2", memory: 1Gi}, limits: {nvidia.com/gpu: "1"}}}
        """));

    assertThat(refused.rejection()).isNull();
    assertThat(refused.refusal())
        .isEqualTo("0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient nvidia.com/gpu.");
    node.release("first");
    assertThat(node.admit("uid", spec("""
        containers:
        - {name: a, resources: {requests: {cpu: "2", memory: 1Gi}, limits: {nvidia.com/gpu: "1"}}}
        """)).admitted()).isTrue();
  }

  @Test
  void aPodThatAsksForMoreThanTheNodeHasIsRejectedAsTheKubeletRejectsIt() {
    NodeAllocation node = new NodeAllocation(new NodeCapacity(4, 8 * GI, 100 * GI, 10, TWO_GPUS));

    NodeAllocation.Decision rejected = node.admit("uid", spec("""
        containers:
        - {name: a, resources: {requests: {cpu: "8", memory: 1Gi}, limits: {nvidia.com/gpu: "3"}}}
        """));

    assertThat(rejected.admitted()).isFalse();
    assertThat(rejected.rejection()).isEqualTo(new NodeAllocation.Rejection("OutOfcpu",
        "Pod was rejected: Node didn't have enough resource: cpu, requested: 8000, used: 0, capacity: 4000"));
    assertThat(node.admit("gpus", spec("containers: [{name: a, resources: {limits: {amd.com/gpu: 1}}}]"))
        .rejection().reason()).isEqualTo("OutOfamd.com/gpu");
  }

  @Test
  void memoryAllocatableKeepsTheKubeletsEvictionThreshold() {
    NodeAllocation node = new NodeAllocation(new NodeCapacity(4, 8 * GI, 100 * GI, 10, List.of()));

    assertThat(node.admit("a", spec("containers: [{name: a, resources: {requests: {memory: 8Gi}}}]")).rejection()
        .reason()).isEqualTo("OutOfmemory");
    assertThat(node.admit("b", spec("containers: [{name: a, resources: {requests: {memory: 7Gi}}}]")).admitted())
        .isTrue();
  }

  @Test
  void podsCapacityIsTheMaxPods() {
    NodeAllocation node = new NodeAllocation(new NodeCapacity(4, 8 * GI, 100 * GI, 1, List.of()));
    assertThat(node.admit("a", spec("containers: [{name: a}]")).admitted()).isTrue();

    assertThat(node.admit("b", spec("containers: [{name: a}]")).refusal())
        .isEqualTo("0/1 nodes are available: 1 Too many pods.");
    node.release("a");
    assertThat(node.admit("c", spec("containers: [{name: a}]")).admitted()).isTrue();
  }

  @Test
  void eachContainerGetsDistinctGpusInitContainersReuseThePodsAndReleaseGivesThemBack() {
    NodeAllocation node = new NodeAllocation(new NodeCapacity(4, 8 * GI, 100 * GI, 10, TWO_GPUS));

    NodeAllocation.Decision first = node.admit("first", spec("""
        initContainers: [{name: init, resources: {limits: {nvidia.com/gpu: 1}}}]
        containers:
        - {name: a, resources: {limits: {nvidia.com/gpu: 1}}}
        - {name: b}
        """));
    NodeAllocation.Decision second = node.admit("second", spec(
        "containers: [{name: a, resources: {limits: {nvidia.com/gpu: 1}}}]"));
    NodeAllocation.Decision third = node.admit("third", spec(
        "containers: [{name: a, resources: {limits: {nvidia.com/gpu: 1}}}]"));

    assertThat(first.gpus()).isEqualTo(Map.of("init", List.of(TWO_GPUS.get(0)), "a", List.of(TWO_GPUS.get(0)),
        "b", List.of()));
    assertThat(second.gpus()).isEqualTo(Map.of("a", List.of(TWO_GPUS.get(1))));
    assertThat(third.refusal()).isEqualTo("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
    node.release("first");
    assertThat(node.admit("third", spec("containers: [{name: a, resources: {limits: {nvidia.com/gpu: 1}}}]"))
        .gpus()).isEqualTo(Map.of("a", List.of(TWO_GPUS.get(0))));
  }

  @Test
  void theGpusOptionAsksNvidiaSmiOnThePathOrDeclaresACount(@TempDir Path bin) throws IOException {
    Path nvidiaSmi = bin.resolve("nvidia-smi");
    Files.writeString(nvidiaSmi, """
        #!/bin/sh
        [ "$1 $2" = "--query-gpu=index,uuid,name,memory.total --format=csv,noheader" ] || exit 9
        echo "0, GPU-a, NVIDIA A100-SXM4-40GB, 40960 MiB"
        echo "1, GPU-b, NVIDIA A100-SXM4-40GB, 40960 MiB"
        """);
    Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));

    assertThat(Gpu.fromOption("auto", bin.toString())).containsExactly(
        new Gpu(0, "GPU-a", "NVIDIA A100-SXM4-40GB", "40960 MiB"),
        new Gpu(1, "GPU-b", "NVIDIA A100-SXM4-40GB", "40960 MiB"));
    assertThat(Gpu.fromOption("none", bin.toString())).isEmpty();
    assertThat(Gpu.fromOption("1", bin.toString())).extracting(Gpu::uuid).containsExactly("GPU-a");
    assertThat(Gpu.fromOption("auto", bin.resolve("empty").toString())).isEmpty();
    assertThat(Gpu.fromOption("2", bin.resolve("empty").toString())).extracting(Gpu::index).containsExactly(0, 1);
    assertThatThrownBy(() -> Gpu.fromOption("all", bin.toString())).hasMessage(
        "--gpus: Invalid value: \"all\": must be auto, none or a count");
  }

  private static PodSpec spec(String yaml) {
    return Serialization.unmarshal(yaml, PodSpec.class);
  }
}
