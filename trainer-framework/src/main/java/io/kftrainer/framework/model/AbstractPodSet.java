package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.immutables.value.Value;

/**
 * One group of identical pods: a replicated job of the runtime's JobSet template.
 *
 * <p>{@link #count()} is the number of pods (the job's parallelism and completions); {@link #ancestor()} is the
 * value of the {@code trainer.kubeflow.org/trainjob-ancestor-step} label ({@code trainer},
 * {@code dataset-initializer}, {@code model-initializer}) that binds TrainJob fields to the job;
 * {@link #endpoints()} are the pods' DNS names, filled in by a {@link io.kftrainer.framework.spi.PreBuildSync}.
 */
@Value.Immutable
public abstract class AbstractPodSet {

  public abstract String name();

  public abstract Optional<String> ancestor();

  public abstract int count();

  public abstract List<ContainerInfo> initContainers();

  public abstract List<ContainerInfo> containers();

  public abstract List<Volume> volumes();

  public abstract List<String> endpoints();

  /** Resource requests of one pod (containers summed, init containers as their maximum). */
  public abstract Map<String, Quantity> singlePodRequests();

  public boolean hasAncestor(String value) {
    return ancestor().filter(value::equals).isPresent();
  }

  public Optional<ContainerInfo> container(String containerName) {
    return containers().stream().filter(c -> c.name().equals(containerName)).findFirst();
  }

  /** This pod set with the named container replaced by {@code change(container)}; unchanged if absent. */
  public PodSet withContainer(String containerName, UnaryOperator<ContainerInfo> change) {
    List<ContainerInfo> all = new ArrayList<>(containers());
    all.replaceAll(c -> c.name().equals(containerName) ? change.apply(c) : c);
    return PodSet.copyOf(this).withContainers(all);
  }

  /** This pod set with every (non-init) container replaced by {@code change(container)}. */
  public PodSet withEveryContainer(UnaryOperator<ContainerInfo> change) {
    List<ContainerInfo> all = new ArrayList<>(containers());
    all.replaceAll(change);
    return PodSet.copyOf(this).withContainers(all);
  }

  /** This pod set with the volume added, replacing a volume of the same name. */
  public PodSet withVolumeUpserted(Volume volume) {
    List<Volume> all = new ArrayList<>(volumes());
    all.removeIf(v -> v.getName().equals(volume.getName()));
    all.add(volume);
    return PodSet.copyOf(this).withVolumes(all);
  }
}
