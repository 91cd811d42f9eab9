package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * What plugins may add to one container of a pod set: env, ports and volume mounts. The JobSet builder merges
 * these into the container of the same name in the runtime template.
 *
 * <p>The fabric8 objects inside are shared: treat them as read-only and replace instead of editing.
 */
@Value.Immutable
public abstract class AbstractContainerInfo {

  public abstract String name();

  public abstract Optional<String> image();

  public abstract List<String> command();

  /**
   * The container's args when a plugin decides them, replacing both the runtime template's and the TrainJob's
   * ({@code trainer.args}); an empty list means none. Empty (the default) leaves the args as they are: a plugin
   * that wraps the whole command line in a launcher of its own (Flux) sets them.
   */
  @Value.Default
  public Optional<List<String>> args() {
    return Optional.empty();
  }

  public abstract List<EnvVar> env();

  public abstract List<ContainerPort> ports();

  public abstract List<VolumeMount> volumeMounts();

  /** The env variable of this name, if set. */
  public Optional<EnvVar> envVar(String name) {
    return env().stream().filter(e -> name.equals(e.getName())).findFirst();
  }

  /**
   * This container with {@code additions} upserted into its env: a variable already present keeps its position
   * and takes the new value, a new one is appended, in the order given.
   */
  public ContainerInfo withEnvUpserted(List<EnvVar> additions) {
    Map<String, EnvVar> byName = new LinkedHashMap<>();
    env().forEach(e -> byName.put(e.getName(), e));
    additions.forEach(e -> byName.put(e.getName(), e));
    return ContainerInfo.copyOf(this).withEnv(byName.values());
  }

  /** This container with the port added unless one with the same container port is present. */
  public ContainerInfo withPortAdded(ContainerPort port) {
    if (ports().stream().anyMatch(p -> p.getContainerPort().equals(port.getContainerPort()))) {
      return ContainerInfo.copyOf(this);
    }
    List<ContainerPort> all = new ArrayList<>(ports());
    all.add(port);
    return ContainerInfo.copyOf(this).withPorts(all);
  }

  /** This container with the mount added, replacing a mount of the same mount path. */
  public ContainerInfo withVolumeMountUpserted(VolumeMount mount) {
    List<VolumeMount> all = new ArrayList<>(volumeMounts());
    all.removeIf(m -> m.getMountPath().equals(mount.getMountPath()));
    all.add(mount);
    return ContainerInfo.copyOf(this).withVolumeMounts(all);
  }
}
