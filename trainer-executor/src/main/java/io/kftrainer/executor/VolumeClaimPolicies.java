package io.kftrainer.executor;

import static io.kftrainer.api.jobset.v1alpha2.JobSetConstants.LABEL_JOBSET_NAME;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.VolumeClaimPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A JobSet's {@code volumeClaimPolicies}, as JobSet v0.12's controller plays them: one PersistentVolumeClaim
 * {@code <template>-<jobset>} per template (the template's labels and annotations, plus {@code jobset-name}), owned by
 * the JobSet unless {@code retentionPolicy.whenDeleted} is {@code Retain} (JobSet's webhook defaults it to
 * {@code Delete}), and a {@code persistentVolumeClaim} volume of that name in each Job whose containers or init
 * containers mount it. The claims are bound by {@link VolumeProvisioner}.
 */
final class VolumeClaimPolicies {

  static final String RETAIN = "Retain";

  private final KubernetesClient client;
  /** JobSet ({@code namespace/name}) to the uid whose claims exist: created once, not per reconcile. */
  private final Map<String, String> ensured = new HashMap<>();

  VolumeClaimPolicies(KubernetesClient client) {
    this.client = client;
  }

  /** The claim's name for a template: {@code <template>-<jobset>}, as JobSet names it. */
  static String claimName(JobSet jobSet, String template) {
    return template + "-" + jobSet.getMetadata().getName();
  }

  /**
   * Creates the JobSet's claims that do not exist yet.
   *
   * @throws KubernetesClientException when the API server refuses one (JobSet's {@code PVCCreationFailed})
   */
  void ensure(JobSet jobSet, OwnerReference owner) {
    String key = jobSet.getMetadata().getNamespace() + "/" + jobSet.getMetadata().getName();
    if (policies(jobSet).isEmpty() || jobSet.getMetadata().getUid().equals(ensured.get(key))) {
      return;
    }
    for (VolumeClaimPolicy policy : policies(jobSet)) {
      boolean owned = policy.getRetentionPolicy() == null || !RETAIN.equals(policy.getRetentionPolicy()
          .getWhenDeleted());
      for (PersistentVolumeClaim template : Optional.ofNullable(policy.getTemplates()).orElse(List.of())) {
        String name = template.getMetadata().getName();
        PersistentVolumeClaimBuilder claim = new PersistentVolumeClaimBuilder().withNewMetadata()
            .withName(claimName(jobSet, name)).withNamespace(jobSet.getMetadata().getNamespace())
            .withLabels(template.getMetadata().getLabels()).addToLabels(LABEL_JOBSET_NAME,
                jobSet.getMetadata().getName())
            .withAnnotations(template.getMetadata().getAnnotations()).endMetadata()
            .withSpec(template.getSpec());
        if (owned) {
          claim.editMetadata().withOwnerReferences(owner).endMetadata();
        }
        try {
          client.persistentVolumeClaims().inNamespace(jobSet.getMetadata().getNamespace()).resource(claim.build())
              .create();
        } catch (KubernetesClientException e) {
          if (e.getCode() != 409) {
            throw e;
          }
        }
      }
    }
    ensured.put(key, jobSet.getMetadata().getUid());
  }

  /** Forgets a deleted JobSet. */
  void forget(String namespace, String name) {
    ensured.remove(namespace + "/" + name);
  }

  /** Adds to {@code pod} the claim volume of each template one of its containers mounts. */
  static void addVolumes(JobSet jobSet, PodSpec pod) {
    for (VolumeClaimPolicy policy : policies(jobSet)) {
      for (PersistentVolumeClaim template : Optional.ofNullable(policy.getTemplates()).orElse(List.of())) {
        String name = template.getMetadata().getName();
        if (mounts(pod, name)) {
          Volume volume = new VolumeBuilder().withName(name).withNewPersistentVolumeClaim()
              .withClaimName(claimName(jobSet, name)).endPersistentVolumeClaim().build();
          pod.setVolumes(Stream.concat(Optional.ofNullable(pod.getVolumes()).orElse(List.of()).stream(),
              Stream.of(volume)).toList());
        }
      }
    }
  }

  private static boolean mounts(PodSpec pod, String volume) {
    return Stream.concat(Optional.ofNullable(pod.getContainers()).orElse(List.of()).stream(),
            Optional.ofNullable(pod.getInitContainers()).orElse(List.of()).stream())
        .map(Container::getVolumeMounts).filter(java.util.Objects::nonNull).flatMap(List::stream)
        .anyMatch(mount -> volume.equals(mount.getName()));
  }

  private static List<VolumeClaimPolicy> policies(JobSet jobSet) {
    return Optional.ofNullable(jobSet.getSpec().getVolumeClaimPolicies()).orElse(List.of());
  }
}
