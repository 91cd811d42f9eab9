package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Yaml;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Inputs built from the YAML fixtures under {@code torch/}, changed only where a case needs it. */
final class TorchFixtures {

  static final String RANK_FROM_INDEX = "<-metadata.annotations['batch.kubernetes.io/job-completion-index']";

  private TorchFixtures() {
  }

  static RuntimeSource runtime(Consumer<TrainingRuntimeSpec> change) {
    return runtime("torch/runtime.yaml", change);
  }

  static RuntimeSource runtime(String resource, Consumer<TrainingRuntimeSpec> change) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource(resource));
    change.accept(runtime.spec());
    return runtime;
  }

  static TrainJob trainJob(Consumer<TrainJob> change) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("torch/trainjob.yaml"));
    change.accept(trainJob);
    return trainJob;
  }

  static <T> Consumer<T> unchanged() {
    return t -> { };
  }

  /** Requirements from alternating resource names and quantities. */
  static ResourceRequirements requests(String... namesAndQuantities) {
    return new ResourceRequirements(null, null, quantities(namesAndQuantities));
  }

  static ResourceRequirements limits(String... namesAndQuantities) {
    return new ResourceRequirements(null, quantities(namesAndQuantities), null);
  }

  static Map<String, Quantity> quantities(String... namesAndQuantities) {
    Map<String, Quantity> map = new LinkedHashMap<>();
    for (int i = 0; i < namesAndQuantities.length; i += 2) {
      map.put(namesAndQuantities[i], new Quantity(namesAndQuantities[i + 1]));
    }
    return map;
  }

  static ContainerInfo container(RuntimeInfo info, String podSet, String container) {
    PodSet ps = info.podSet(podSet).orElseThrow();
    return ps.container(container)
        .or(() -> ps.initContainers().stream().filter(c -> c.name().equals(container)).findFirst())
        .orElseThrow();
  }

  /** Env as lines: {@code NAME=value}, or {@code NAME<-fieldPath} for a field reference. */
  static List<String> env(ContainerInfo container) {
    return container.env().stream().map(TorchFixtures::line).toList();
  }

  private static String line(EnvVar env) {
    if (env.getValueFrom() != null && env.getValueFrom().getFieldRef() != null) {
      return env.getName() + "<-" + env.getValueFrom().getFieldRef().getFieldPath();
    }
    return env.getName() + "=" + env.getValue();
  }

  /** An error as {@code <type> <path>: <detail>}. */
  static String describe(FieldError error) {
    return error.type() + " " + error.field() + ": " + error.detail();
  }

  static String yaml(Object object) {
    return Yaml.dump(object);
  }
}
