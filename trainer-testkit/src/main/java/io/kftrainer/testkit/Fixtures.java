package io.kftrainer.testkit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Objects from YAML, the way tests want them: a TrainJob, a runtime, or every document of a multi-document file,
 * read from a string or a class-path resource. Kinds of this project's API (and JobSets) come back typed, others
 * as {@link GenericKubernetesResource}.
 */
public final class Fixtures {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final String SHIPPED_RUNTIMES = "META-INF/trainer/testkit/runtimes/";
  private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
      "TrainJob", TrainJob.class,
      "TrainingRuntime", TrainingRuntime.class,
      "ClusterTrainingRuntime", ClusterTrainingRuntime.class,
      "JobSet", JobSet.class);

  private Fixtures() {
  }

  /** The serialization the test kit uses (fabric8's, as the operator does). */
  public static KubernetesSerialization serialization() {
    return SERIALIZATION;
  }

  public static TrainJob trainJob(String yaml) {
    TrainJob trainJob = SERIALIZATION.unmarshal(yaml, TrainJob.class);
    if (trainJob.getMetadata().getNamespace() == null) {
      trainJob.getMetadata().setNamespace("default");
    }
    return trainJob;
  }

  /** A {@code TrainingRuntime} or {@code ClusterTrainingRuntime}, by its {@code kind}. */
  public static RuntimeSource runtime(String yaml) {
    HasMetadata object = object(yaml);
    if (object instanceof TrainingRuntime runtime) {
      return RuntimeSource.of(runtime);
    }
    if (object instanceof ClusterTrainingRuntime runtime) {
      return RuntimeSource.of(runtime);
    }
    throw new IllegalArgumentException("not a runtime: kind " + object.getKind());
  }

  /**
   * A runtime this project ships ({@code manifests/runtimes}), by name: {@code torch-distributed},
   * {@code deepspeed-distributed}, {@code mlx-distributed}, {@code jax-distributed}, {@code xgboost-distributed},
   * {@code torchtune-llama3.2-1b}, ... The same {@code ClusterTrainingRuntime}s the operator resolves offline.
   *
   * @throws IllegalArgumentException if no shipped runtime has this name
   */
  public static RuntimeSource shippedRuntime(String name) {
    String path = SHIPPED_RUNTIMES + name + ".yaml";
    if (Fixtures.class.getClassLoader().getResource(path) == null) {
      throw new IllegalArgumentException("no shipped runtime " + name);
    }
    return runtime(resource(path));
  }

  /** One object, typed by its kind. */
  public static HasMetadata object(String yaml) {
    GenericKubernetesResource generic = SERIALIZATION.unmarshal(yaml, GenericKubernetesResource.class);
    Class<? extends HasMetadata> type = KINDS.get(generic.getKind());
    return type == null ? generic : SERIALIZATION.convertValue(generic, type);
  }

  /** Every document of a multi-document YAML string, typed by kind, in order. */
  public static List<HasMetadata> objects(String yaml) {
    return Yaml.documents(yaml).stream().map(Fixtures::object).toList();
  }

  /** The text of a class-path resource (UTF-8), e.g. {@code resource("torch/runtime.yaml")}. */
  public static String resource(String path) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    try (InputStream in = loader.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no class-path resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
