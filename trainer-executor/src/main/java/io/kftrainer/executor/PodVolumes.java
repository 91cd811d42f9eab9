package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pod's volumes as directories of the run directory: {@code emptyDir} per pod
 * ({@code <run>/<ns>/pods/<pod>/volumes/<name>}), a PVC per namespace and claim
 * ({@code <run>/<ns>/pvc/<claim>}, so initializers and trainers share it), {@code configMap} and {@code secret}
 * written as files, {@code projected} ones by {@link ProjectedVolumes}, {@code hostPath} as is. {@link #mounts}
 * maps each mount path of a container to its directory. Every path built from object data stays inside its
 * directory ({@link PodPaths#within}); files get the pod's {@code defaultMode} and {@code items[].mode}.
 */
final class PodVolumes {

  private final Map<String, Path> directories = new HashMap<>();

  private PodVolumes() {
  }

  static PodVolumes create(KubernetesClient client, Pod pod, Path runDir, Path podDir) throws IOException {
    return create(client, pod, runDir, podDir, null, null);
  }

  /** With {@code projected} volumes ({@link ProjectedVolumes}) written for the pod {@code podIp}. */
  static PodVolumes create(KubernetesClient client, Pod pod, Path runDir, Path podDir, ProjectedVolumes projected,
      String podIp) throws IOException {
    PodVolumes volumes = new PodVolumes();
    String ns = pod.getMetadata().getNamespace();
    for (Volume volume : Optional.ofNullable(pod.getSpec().getVolumes()).orElse(List.of())) {
      Path dir;
      if (volume.getPersistentVolumeClaim() != null) {
        dir = VolumeProvisioner.directory(runDir, ns, volume.getPersistentVolumeClaim().getClaimName());
        PodPaths.createPrivateDirectories(dir);
      } else if (volume.getHostPath() != null) {
        dir = Path.of(volume.getHostPath().getPath());
      } else {
        dir = PodPaths.within(podDir.resolve("volumes"), volume.getName(), "volume name");
        PodPaths.createPrivateDirectories(dir);
        if (volume.getConfigMap() != null) {
          write(dir, configMapData(client, ns, volume.getConfigMap().getName(), volume.getConfigMap().getOptional()),
              volume.getConfigMap().getItems(), volume.getConfigMap().getDefaultMode());
        } else if (volume.getSecret() != null) {
          write(dir, secretData(client, ns, volume.getSecret().getSecretName(), volume.getSecret().getOptional()),
              volume.getSecret().getItems(), volume.getSecret().getDefaultMode());
        } else if (volume.getProjected() != null && projected != null) {
          projected.write(ns + "/" + pod.getMetadata().getName(), pod, podIp, volume.getProjected(), dir);
        }
      }
      volumes.directories.put(volume.getName(), dir);
    }
    return volumes;
  }

  /**
   * Mount path to directory, for the container's volume mounts.
   *
   * @throws ContainerEnv.ConfigError a {@code subPath} that leaves its volume (the kubelet's
   *     {@code CreateContainerConfigError})
   */
  Map<String, String> mounts(Container container) {
    Map<String, String> mounts = new LinkedHashMap<>();
    for (VolumeMount mount : Optional.ofNullable(container.getVolumeMounts()).orElse(List.of())) {
      Path dir = directories.get(mount.getName());
      if (dir == null) {
        continue;
      }
      if (mount.getSubPath() != null && !mount.getSubPath().isEmpty()) {
        dir = PodPaths.within(dir, mount.getSubPath(), "subPath");
        try {
          PodPaths.createPrivateDirectories(dir.getParent());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
      mounts.put(mount.getMountPath(), dir.toString());
    }
    return mounts;
  }

  /** A ConfigMap's data and binary data by key; empty when it is absent and {@code optional}. */
  static Map<String, byte[]> configMapData(KubernetesClient client, String namespace, String name, Boolean optional) {
    ConfigMap cm = client.configMaps().inNamespace(namespace).withName(name).get();
    if (cm == null && !Boolean.TRUE.equals(optional)) {
      throw new ContainerEnv.ConfigError("configmap \"" + name + "\" not found");
    }
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (cm != null && cm.getData() != null) {
      cm.getData().forEach((k, v) -> data.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    if (cm != null && cm.getBinaryData() != null) {
      cm.getBinaryData().forEach((k, v) -> data.put(k, Base64.getDecoder().decode(v)));
    }
    return data;
  }

  /** A Secret's data by key; empty when it is absent and {@code optional}. */
  static Map<String, byte[]> secretData(KubernetesClient client, String namespace, String name, Boolean optional) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null && !Boolean.TRUE.equals(optional)) {
      throw new ContainerEnv.ConfigError("secret \"" + name + "\" not found");
    }
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (secret != null) {
      ContainerEnv.secretData(secret).forEach((k, v) -> data.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    return data;
  }

  /**
   * Writes {@code data} into {@code dir}: every key as a file, or only {@code items}, each at its path, with its
   * mode, else {@code defaultMode}, else 0644.
   */
  static void write(Path dir, Map<String, byte[]> data, List<KeyToPath> items, Integer defaultMode)
      throws IOException {
    int mode = defaultMode != null ? defaultMode : PodPaths.DEFAULT_FILE_MODE;
    if (items == null || items.isEmpty()) {
      for (Map.Entry<String, byte[]> e : data.entrySet()) {
        PodPaths.write(PodPaths.within(dir, e.getKey(), "key"), e.getValue(), mode);
      }
      return;
    }
    for (KeyToPath item : items) {
      byte[] value = data.get(item.getKey());
      if (value != null) {
        PodPaths.write(PodPaths.within(dir, item.getPath(), "items[].path"), value,
            item.getMode() != null ? item.getMode() : mode);
      }
    }
  }
}
