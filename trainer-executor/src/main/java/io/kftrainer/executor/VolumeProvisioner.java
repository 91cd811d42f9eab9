package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * This machine's storage provisioner, as Rancher's local-path provisioner is a cluster's: a claim that is not bound
 * gets a PersistentVolume {@code pvc-<claim uid>} whose {@code hostPath} is the claim's directory
 * ({@code <run dir>/<namespace>/pvc/<claim>}, where the kubelet mounts it: {@link PodVolumes}), with the claim's
 * access modes, volume mode, storage class and requested size (not enforced), and the claim is {@code Bound} to it.
 * When the claim is deleted, the volume and the directory are too ({@code persistentVolumeReclaimPolicy: Delete}),
 * unless a claim of the same name exists again. A claim that names a volume of its own ({@code spec.volumeName}) is
 * left to the user.
 */
final class VolumeProvisioner {

  static final String CONTROLLER = "volumes";
  static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
  static final String PROVISIONER = "trainer.kubeflow.org/local-path";

  private final KubernetesClient client;
  private final Store<PersistentVolumeClaim> claims;
  private final Path runDir;
  private final EventRecorder events;
  private final Consumer<String> progress;
  private final StatusUpdates statuses;
  /** Claim ({@code namespace/name}) to the uid bound here: until the informer brings the binding back, not again. */
  private final Map<String, String> bound = new java.util.HashMap<>();

  VolumeProvisioner(KubernetesClient client, Store<PersistentVolumeClaim> claims, Path runDir, EventRecorder events,
      Consumer<String> progress) {
    this.client = client;
    this.claims = claims;
    this.runDir = runDir;
    this.events = events;
    this.progress = progress;
    this.statuses = StatusUpdates.ofObservedState(client);
  }

  /** The directory of {@code claim} in {@code namespace}, shared by every pod that mounts it. */
  static Path directory(Path runDir, String namespace, String claim) {
    return PodPaths.within(PodPaths.within(runDir, namespace, "namespace").resolve("pvc"), claim,
        "persistentVolumeClaim.claimName");
  }

  void reconcile(WorkQueue.Key key) {
    PersistentVolumeClaim claim = claims.getByKey(key.namespace() + "/" + key.name());
    if (claim == null) {
      bound.remove(key.namespace() + "/" + key.name());
      reclaim(key.namespace(), key.name());
      return;
    }
    if (claim.getMetadata().getUid().equals(bound.get(key.namespace() + "/" + key.name()))) {
      return;
    }
    if (claim.getMetadata().getDeletionTimestamp() != null || claim.getStatus() != null
        && "Bound".equals(claim.getStatus().getPhase())) {
      return;
    }
    if (claim.getSpec().getVolumeName() != null && !claim.getSpec().getVolumeName().isEmpty()
        && !claim.getSpec().getVolumeName().equals(volumeName(claim))) {
      return;
    }
    bind(claim);
  }

  private void bind(PersistentVolumeClaim claim) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    Path dir = directory(runDir, ns, name);
    try {
      PodPaths.createPrivateDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Quantity> capacity = Optional.ofNullable(claim.getSpec().getResources())
        .map(r -> r.getRequests()).filter(r -> r.containsKey("storage"))
        .map(r -> Map.of("storage", r.get("storage"))).orElse(Map.of());
    PersistentVolume volume = new PersistentVolumeBuilder().withNewMetadata().withName(volumeName(claim))
        .addToAnnotations(PROVISIONED_BY, PROVISIONER).endMetadata()
        .withNewSpec().withCapacity(capacity).withAccessModes(claim.getSpec().getAccessModes())
        .withVolumeMode(claim.getSpec().getVolumeMode()).withStorageClassName(claim.getSpec().getStorageClassName())
        .withPersistentVolumeReclaimPolicy("Delete").withNewHostPath().withPath(dir.toString())
        .withType("DirectoryOrCreate").endHostPath()
        .withClaimRef(new ObjectReferenceBuilder().withApiVersion("v1").withKind("PersistentVolumeClaim")
            .withNamespace(ns).withName(name).withUid(claim.getMetadata().getUid()).build())
        .endSpec().build();
    PersistentVolume created;
    try {
      created = client.persistentVolumes().resource(volume).create();
      events.record(claim, "local-path-provisioner", "Normal", "ProvisioningSucceeded",
          "Successfully provisioned volume " + volumeName(claim) + " at " + dir);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      created = client.persistentVolumes().withName(volumeName(claim)).get();
    }
    if (created != null && (created.getStatus() == null || !"Bound".equals(created.getStatus().getPhase()))) {
      statuses.write(created, v -> v.setStatus(new io.fabric8.kubernetes.api.model.PersistentVolumeStatusBuilder()
          .withPhase("Bound").build()));
    }
    if (claim.getSpec().getVolumeName() == null || claim.getSpec().getVolumeName().isEmpty()) {
      claim = client.persistentVolumeClaims().inNamespace(ns).withName(name).edit(c -> {
        c.getSpec().setVolumeName(volumeName(c));
        Map<String, String> annotations = new java.util.HashMap<>(Optional.ofNullable(c.getMetadata()
            .getAnnotations()).orElse(Map.of()));
        annotations.put("pv.kubernetes.io/bind-completed", "yes");
        annotations.put("pv.kubernetes.io/bound-by-controller", "yes");
        c.getMetadata().setAnnotations(annotations);
        return c;
      });
    }
    statuses.write(claim, c -> c.setStatus(new PersistentVolumeClaimStatusBuilder().withPhase("Bound")
        .withAccessModes(c.getSpec().getAccessModes()).withCapacity(capacity).build()));
    bound.put(ns + "/" + name, claim.getMetadata().getUid());
    progress.accept("persistentvolumeclaim " + ns + "/" + name + ": Bound to " + dir);
  }

  /** Deletes the volumes provisioned for the deleted claim {@code namespace/name}, and their directory. */
  private void reclaim(String namespace, String name) {
    List<PersistentVolume> volumes = client.persistentVolumes().list().getItems().stream()
        .filter(v -> v.getMetadata().getAnnotations() != null
            && PROVISIONER.equals(v.getMetadata().getAnnotations().get(PROVISIONED_BY)))
        .filter(v -> v.getSpec().getClaimRef() != null && namespace.equals(v.getSpec().getClaimRef().getNamespace())
            && name.equals(v.getSpec().getClaimRef().getName()))
        .toList();
    for (PersistentVolume volume : volumes) {
      try {
        client.resource(volume).delete();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
    }
    if (!volumes.isEmpty()) {
      deleteRecursively(directory(runDir, namespace, name));
    }
  }

  private static String volumeName(PersistentVolumeClaim claim) {
    return "pvc-" + claim.getMetadata().getUid();
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
