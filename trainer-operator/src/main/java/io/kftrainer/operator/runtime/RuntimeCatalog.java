package io.kftrainer.operator.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.operator.yaml.Manifest;
import io.kftrainer.operator.yaml.ManifestReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 */
public final class RuntimeCatalog implements RuntimeResolver {

  /** Class-path directory of the shipped runtime files. */
  public static final String SHIPPED_DIRECTORY = "META-INF/trainer/runtimes/";

  private static final String INDEX = "kustomization.yaml";

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
    for (JsonNode file : readShipped(classLoader, INDEX).get(0).tree().path("resources")) {
      for (Manifest manifest : readShipped(classLoader, file.asText())) {
        runtimes.add(toRuntime(manifest));
      }
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

  private static RuntimeSource toRuntime(Manifest manifest) {
    manifest.check();
    switch (manifest.kind()) {
      case RuntimeSource.CLUSTER_TRAINING_RUNTIME -> {
        ClusterTrainingRuntime runtime = manifest.as(ClusterTrainingRuntime.class);
        CrdDefaults.applyTo(runtime);
        return RuntimeSource.of(runtime);
      }
      case RuntimeSource.TRAINING_RUNTIME -> {
        TrainingRuntime runtime = manifest.as(TrainingRuntime.class);
        CrdDefaults.applyTo(runtime);
        return RuntimeSource.of(runtime);
      }
      default -> throw new IllegalStateException(manifest.location() + ": a shipped runtime of kind "
          + manifest.kind());
    }
  }

  private static List<Manifest> readShipped(ClassLoader classLoader, String file) {
    String path = SHIPPED_DIRECTORY + file;
    try (InputStream in = classLoader.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("shipped runtime file " + path + " is not on the class path");
      }
      return ManifestReader.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
