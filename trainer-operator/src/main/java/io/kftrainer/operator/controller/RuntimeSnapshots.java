package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.ChildObjects;
import io.kftrainer.api.CrdDefaults;
import io.kftrainer.runtime.RuntimeKey;
import java.net.HttpURLConnection;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The runtime a TrainJob started with, kept for its whole life: the ConfigMap {@code <trainjob>-runtime-snapshot}
 * holds the runtime's YAML under the key {@value #KEY}. It is created on the TrainJob's first build and read by
 * every later one, so that editing or deleting a runtime never changes the objects of a TrainJob that already
 * exists (a suspended job resumes with the runtime it was created with).
 *
 * <p>Two steps, in this order on every build: {@link #find} the TrainJob's snapshot; if it has none yet,
 * {@link #take} one of the runtime it refers to now. Both hand back the runtime as read from the snapshot's YAML,
 * so a TrainJob is built from the same object on its first build as on every later one.
 *
 * <p>The ConfigMap is a child like any other (controller owner reference, TrainJob label, garbage-collected with
 * the TrainJob) and immutable. It is created with a plain create, not an apply, so that a ConfigMap of the same name
 * that the operator does not own is never adopted: such a ConfigMap, or a snapshot of another runtime than the
 * TrainJob's {@code runtimeRef}, is a {@link RuntimeSnapshotException}.
 */
public final class RuntimeSnapshots {

  public static final String NAME_SUFFIX = "-runtime-snapshot";
  public static final String KEY = "runtime";

  private final CacheObjectLookup cache;
  private final KubernetesClient client;
  private final KubernetesSerialization serialization;
  private final RuntimeYaml snapshotYaml;

  public RuntimeSnapshots(CacheObjectLookup cache, KubernetesClient client) {
    this.cache = cache;
    this.client = client;
    this.serialization = client.getKubernetesSerialization();
    this.snapshotYaml = new RuntimeYaml(serialization);
  }

  public static String name(TrainJob trainJob) {
    return trainJob.getMetadata().getName() + NAME_SUFFIX;
  }

  /**
   * The runtime the TrainJob's snapshot holds (read from the cache); empty when it has no snapshot yet.
   *
   * @throws io.kftrainer.runtime.UnsupportedRuntimeException if the reference is to an unknown kind
   * @throws RuntimeSnapshotException if the snapshot ConfigMap is not this TrainJob's snapshot of its runtime
   */
  public Optional<RuntimeSource> find(TrainJob trainJob) {
    return cache.get(ConfigMap.class, trainJob.getMetadata().getNamespace(), name(trainJob))
        .map(snapshot -> read(snapshot, trainJob));
  }

  /**
   * Creates the TrainJob's snapshot of {@code runtime}, the runtime it refers to now, and returns the runtime as the
   * snapshot holds it.
   *
   * @throws RuntimeSnapshotException if a ConfigMap of the snapshot's name exists and is not this TrainJob's
   *     snapshot of its runtime
   */
  public RuntimeSource take(TrainJob trainJob, RuntimeSource runtime) {
    return take(trainJob, runtime, snapshot -> { });
  }

  /** As {@link #take(TrainJob, RuntimeSource)}, telling {@code created} of the snapshot if this call created it. */
  public RuntimeSource take(TrainJob trainJob, RuntimeSource runtime, Consumer<? super ConfigMap> created) {
    return read(create(trainJob, runtime, created), trainJob);
  }

  private ConfigMap create(TrainJob trainJob, RuntimeSource runtime, Consumer<? super ConfigMap> onCreated) {
    ConfigMap snapshot = new ConfigMapBuilder()
        .withNewMetadata().withName(name(trainJob)).endMetadata()
        .withImmutable(true)
        .addToData(KEY, snapshotYaml.write(recordOf(runtime)))
        .build();
    ChildObjects.adopt(trainJob, snapshot);
    String namespace = trainJob.getMetadata().getNamespace();
    try {
      ConfigMap created = client.configMaps().inNamespace(namespace).resource(snapshot).create();
      cache.recordWrite(created, Optional.empty());
      onCreated.accept(created);
      return created;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      // not in the cache, yet it exists: created by this operator moments ago, or someone else's
      ConfigMap existing = client.configMaps().inNamespace(namespace).withName(name(trainJob)).get();
      if (existing == null) {
        throw e;
      }
      return existing;
    }
  }

  private RuntimeSource read(ConfigMap snapshot, TrainJob trainJob) {
    RuntimeKey key = RuntimeKey.of(trainJob);
    String where = "runtime snapshot ConfigMap " + trainJob.getMetadata().getNamespace() + "/" + name(trainJob);
    if (!ChildObjects.isControlledBy(snapshot, trainJob.getMetadata().getUid())) {
      throw new RuntimeSnapshotException(where + " is not controlled by TrainJob " + trainJob.getMetadata().getName());
    }
    String yaml = snapshot.getData() == null ? null : snapshot.getData().get(KEY);
    if (yaml == null) {
      throw new RuntimeSnapshotException(where + " has no key \"" + KEY + "\"");
    }
    RuntimeSource runtime = parse(yaml, where);
    RuntimeKey recorded = RuntimeKey.of(runtime);
    if (!recorded.equals(key)) {
      throw new RuntimeSnapshotException(where + " holds " + recorded + ", but the TrainJob refers to " + key);
    }
    return runtime;
  }

  private RuntimeSource parse(String yaml, String where) {
    GenericKubernetesResource generic;
    try {
      generic = serialization.unmarshal(snapshotYaml.jsonOf(yaml), GenericKubernetesResource.class);
    } catch (RuntimeException e) {
      throw new RuntimeSnapshotException(where + " is not a runtime: " + e.getMessage());
    }
    if (generic == null || generic.getMetadata() == null) {
      throw new RuntimeSnapshotException(where + " is not a runtime");
    }
    // The one place the controller sets CRD defaults: the API server defaults the runtimes it stores, not a runtime
    // kept as text in a ConfigMap, which may predate a default the CRD has now.
    switch (Objects.requireNonNullElse(generic.getKind(), "")) {
      case RuntimeSource.TRAINING_RUNTIME -> {
        TrainingRuntime runtime = serialization.convertValue(generic, TrainingRuntime.class);
        CrdDefaults.applyTo(runtime);
        return RuntimeSource.of(runtime);
      }
      case RuntimeSource.CLUSTER_TRAINING_RUNTIME -> {
        ClusterTrainingRuntime runtime = serialization.convertValue(generic, ClusterTrainingRuntime.class);
        CrdDefaults.applyTo(runtime);
        return RuntimeSource.of(runtime);
      }
      default -> throw new RuntimeSnapshotException(where + " holds a " + generic.getKind() + ", not a runtime");
    }
  }

  /** The runtime as recorded: its identity, labels and annotations and spec, without server bookkeeping. */
  private static HasMetadata recordOf(RuntimeSource runtime) {
    ObjectMeta source = runtime.metadata();
    ObjectMeta metadata = new ObjectMetaBuilder()
        .withName(source.getName())
        .withNamespace(source.getNamespace())
        .withUid(source.getUid())
        .withResourceVersion(source.getResourceVersion())
        .withLabels(source.getLabels())
        .withAnnotations(source.getAnnotations())
        .build();
    if (RuntimeSource.CLUSTER_TRAINING_RUNTIME.equals(runtime.kind())) {
      ClusterTrainingRuntime record = new ClusterTrainingRuntime();
      record.setMetadata(metadata);
      record.setSpec(runtime.spec());
      return record;
    }
    TrainingRuntime record = new TrainingRuntime();
    record.setMetadata(metadata);
    record.setSpec(runtime.spec());
    return record;
  }
}
