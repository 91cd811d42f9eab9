package io.kftrainer.executor;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What this machine offers pods, as a kubelet reports it in a Node's {@code status.capacity} and
 * {@code status.allocatable}: {@code cpu} (the CPUs this JVM may use, a cgroup's quota included),
 * {@code memory}, {@code ephemeral-storage} (the run directory's file system), {@code pods} ({@code --max-pods})
 * and {@code nvidia.com/gpu} ({@link Gpu}). Allocatable memory is the capacity less the kubelet's default hard
 * eviction threshold ({@code memory.available<100Mi}); the rest is allocatable whole, as with no
 * {@code --system-reserved}.
 */
public record NodeCapacity(int cpus, long memoryBytes, long storageBytes, int pods, List<Gpu> gpus) {

  static final long EVICTION_THRESHOLD = 100L * 1024 * 1024;

  public NodeCapacity {
    gpus = List.copyOf(gpus);
  }

  /** This machine's resources, with {@code pods} pods at most and {@code gpus}. */
  static NodeCapacity detect(Path runDir, int pods, List<Gpu> gpus) {
    long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
    long storage;
    try {
      storage = Files.getFileStore(runDir).getTotalSpace();
    } catch (IOException e) {
      storage = 0;
    }
    return new NodeCapacity(Runtime.getRuntime().availableProcessors(), memory, storage, pods, gpus);
  }

  Map<String, BigDecimal> capacity() {
    Map<String, BigDecimal> capacity = new LinkedHashMap<>();
    capacity.put("cpu", BigDecimal.valueOf(cpus));
    capacity.put("ephemeral-storage", BigDecimal.valueOf(storageBytes));
    capacity.put("memory", BigDecimal.valueOf(memoryBytes));
    if (!gpus.isEmpty()) {
      capacity.put(PodRequests.GPU, BigDecimal.valueOf(gpus.size()));
    }
    capacity.put("pods", BigDecimal.valueOf(pods));
    return capacity;
  }

  Map<String, BigDecimal> allocatable() {
    Map<String, BigDecimal> allocatable = capacity();
    allocatable.put("memory", BigDecimal.valueOf(Math.max(0, memoryBytes - EVICTION_THRESHOLD)));
    return allocatable;
  }

  /** For the banner: {@code 8 CPUs, 31.2 GiB memory, 2 GPUs (NVIDIA A100: 0, 1), 16 pods}. */
  public String describe() {
    String gpuText = gpus.isEmpty() ? "no GPU" : gpus.size() + (gpus.size() == 1 ? " GPU" : " GPUs") + " ("
        + gpus.stream().map(g -> g.index() + " " + g.name()).collect(Collectors.joining(", ")) + ")";
    return cpus + (cpus == 1 ? " CPU, " : " CPUs, ")
        + String.format(java.util.Locale.ROOT, "%.1f GiB memory, ", memoryBytes / (1024.0 * 1024 * 1024))
        + gpuText + ", " + pods + " pods";
  }
}
