package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Node object of this machine, as a kubelet registers it: labels {@code kubernetes.io/hostname}, {@code os},
 * {@code arch} (and GPU feature discovery's {@code nvidia.com/gpu.count} and {@code nvidia.com/gpu.product} with
 * GPUs), {@code status.capacity} and {@code allocatable} ({@link NodeCapacity}), the conditions {@code Ready} and
 * the three pressures, addresses and {@code nodeInfo}. A Node left by an earlier run is taken over.
 */
final class NodeRegistration {

  private NodeRegistration() {
  }

  static Node register(KubernetesClient client, NodeCapacity capacity) {
    Node desired = new NodeBuilder().withNewMetadata().withName(Kubelet.NODE_NAME).withLabels(labels(capacity))
        .endMetadata().withNewSpec().endSpec().build();
    Node node;
    try {
      node = client.nodes().resource(desired).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      node = client.nodes().withName(Kubelet.NODE_NAME).edit(n -> {
        n.getMetadata().setLabels(labels(capacity));
        return n;
      });
    }
    node.setStatus(status(client, capacity));
    return client.nodes().resource(node).updateStatus();
  }

  private static Map<String, String> labels(NodeCapacity capacity) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("kubernetes.io/hostname", Kubelet.NODE_NAME);
    labels.put("kubernetes.io/os", "linux");
    labels.put("kubernetes.io/arch", arch());
    labels.put("beta.kubernetes.io/os", "linux");
    labels.put("beta.kubernetes.io/arch", arch());
    if (!capacity.gpus().isEmpty()) {
      labels.put("nvidia.com/gpu.count", String.valueOf(capacity.gpus().size()));
      labels.put("nvidia.com/gpu.product", capacity.gpus().get(0).name().replaceAll("[^A-Za-z0-9_.-]", "-"));
    }
    return labels;
  }

  private static NodeStatus status(KubernetesClient client, NodeCapacity capacity) {
    String now = Instant.now().toString();
    List<NodeCondition> conditions = List.of(
        condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available",
            now),
        condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", now),
        condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", now),
        condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", now));
    String version = Optional.ofNullable(client.getKubernetesVersion()).map(v -> v.getGitVersion()).orElse("");
    return new NodeStatusBuilder()
        .withCapacity(quantities(capacity.capacity()))
        .withAllocatable(quantities(capacity.allocatable()))
        .withConditions(conditions)
        .addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
        .addNewAddress().withType("Hostname").withAddress(Kubelet.NODE_NAME).endAddress()
        .withNewNodeInfo()
        .withMachineID(read(Path.of("/etc/machine-id")).orElse(""))
        .withSystemUUID("")
        .withBootID(read(Path.of("/proc/sys/kernel/random/boot_id")).orElse(""))
        .withKernelVersion(System.getProperty("os.version"))
        .withOsImage(osImage())
        .withOperatingSystem("linux")
        .withArchitecture(arch())
        .withContainerRuntimeVersion("local://processes")
        .withKubeletVersion(version)
        .withKubeProxyVersion(version)
        .endNodeInfo()
        .build();
  }

  private static NodeCondition condition(String type, String status, String reason, String message, String now) {
    return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withLastHeartbeatTime(now).withLastTransitionTime(now).build();
  }

  private static Map<String, Quantity> quantities(Map<String, BigDecimal> amounts) {
    Map<String, Quantity> result = new LinkedHashMap<>();
    amounts.forEach((k, v) -> result.put(k, PodRequests.quantity(k, v)));
    return result;
  }

  /** As {@code GOARCH} names it. */
  private static String arch() {
    String arch = System.getProperty("os.arch");
    return switch (arch) {
      case "amd64", "x86_64" -> "amd64";
      case "aarch64" -> "arm64";
      default -> arch;
    };
  }

  /** {@code PRETTY_NAME} of os-release(5), as the kubelet reports it. */
  private static String osImage() {
    return read(Path.of("/etc/os-release")).flatMap(text -> text.lines()
            .filter(l -> l.startsWith("PRETTY_NAME=")).findFirst())
        .map(l -> l.substring("PRETTY_NAME=".length()).replace("\"", "")).orElse("Linux");
  }

  private static Optional<String> read(Path file) {
    try {
      return Optional.of(Files.readString(file).trim());
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
