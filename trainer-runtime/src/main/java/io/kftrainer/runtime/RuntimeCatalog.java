package io.kftrainer.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kftrainer.api.CrdDefaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runtimes held in memory, for resolving TrainJobs without a cluster ({@code render}).
 *
 * <p>{@link #withShipped} puts the runtimes given first and the runtimes this project ships after them, so that
 * an input runtime shadows a shipped one of the same kind and name. The shipped runtimes are the files of
 * {@code manifests/runtimes}, copied by the build to {@value #SHIPPED_DIRECTORY} on the class path; the
 * {@code resources} list of the {@code kustomization.yaml} there (the one that installs them in a cluster) is the
 * index of those files. They are returned with the CRD defaults set, as the API server would store them.
 *
 * <p>The files are this project's own, checked by its tests: they are read with Jackson's YAML mapper as they are,
 * without the user-facing checks of the command line's manifest reader.
 */
public final class RuntimeCatalog implements RuntimeResolver {

  /** Class-path directory of the shipped runtime files. */
  public static final String SHIPPED_DIRECTORY = "META-INF/trainer/runtimes/";

  private static final String INDEX = "kustomization.yaml";
  private static final ObjectMapper YAML = new YAMLMapper();

  private final Map<RuntimeKey, RuntimeSource> runtimes;

  /**
   * A catalog of exactly these runtimes.
   *
   * @throws IllegalArgumentException if two runtimes have the same kind, namespace and name
   */
  public RuntimeCatalog(List<RuntimeSource> runtimes) {
    Map<RuntimeKey, RuntimeSource> byKey = new LinkedHashMap<>();
    for (RuntimeSource runtime : runtimes) {
      RuntimeKey key = RuntimeKey.of(runtime);
      if (byKey.putIfAbsent(key, runtime) != null) {
        throw new IllegalArgumentException(key + " is defined twice");
      }
    }
    this.runtimes = Collections.unmodifiableMap(byKey);
  }

  /** {@code inputs} (which must be unique), then each shipped runtime that no input shadows. */
  public static RuntimeCatalog withShipped(List<RuntimeSource> inputs) {
    List<RuntimeSource> all = new ArrayList<>(inputs);
    List<RuntimeKey> inputKeys = inputs.stream().map(RuntimeKey::of).toList();
    shipped().stream().filter(runtime -> !inputKeys.contains(RuntimeKey.of(runtime))).forEach(all::add);
    return new RuntimeCatalog(all);
  }

  /** The runtimes this project ships, in the order of their index. */
  public static List<RuntimeSource> shipped() {
    return shipped(RuntimeCatalog.class.getClassLoader());
  }

  static List<RuntimeSource> shipped(ClassLoader classLoader) {
    List<RuntimeSource> runtimes = new ArrayList<>();
    for (JsonNode file : readShipped(classLoader, INDEX).path("resources")) {
      runtimes.add(toRuntime(file.asText(), readShipped(classLoader, file.asText())));
    }
    return List.copyOf(runtimes);
  }

  @Override
  public Optional<RuntimeSource> resolve(TrainJob trainJob) {
    return get(RuntimeKey.of(trainJob));
  }

  public Optional<RuntimeSource> get(RuntimeKey key) {
    return Optional.ofNullable(runtimes.get(key));
  }

  /** Every runtime, in catalog order. */
  public List<RuntimeSource> runtimes() {
    return List.copyOf(runtimes.values());
  }

  private static RuntimeSource toRuntime(String file, JsonNode tree) {
    String kind = tree.path("kind").asText();
    switch (kind) {
      case RuntimeSource.CLUSTER_TRAINING_RUNTIME -> {
        ClusterTrainingRuntime runtime = YAML.convertValue(tree, ClusterTrainingRuntime.class);
        CrdDefaults.applyTo(runtime);
        return RuntimeSource.of(runtime);
      }
      case RuntimeSource.TRAINING_RUNTIME -> {
        TrainingRuntime runtime = YAML.convertValue(tree, TrainingRuntime.class);
        CrdDefaults.applyTo(runtime);
        return RuntimeSource.of(runtime);
      }
      default -> throw new IllegalStateException(file + ": a shipped runtime of kind " + kind);
    }
  }

  private static JsonNode readShipped(ClassLoader classLoader, String file) {
    String path = SHIPPED_DIRECTORY + file;
    try (InputStream in = classLoader.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("shipped runtime file " + path + " is not on the class path");
      }
      return YAML.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
