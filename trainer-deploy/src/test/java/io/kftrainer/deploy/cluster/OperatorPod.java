package io.kftrainer.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.deploy.image.BwrapContainer;
import io.kftrainer.deploy.image.ImageConfig;
import io.kftrainer.lab.Lab;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * A pod of an installed Deployment (or a Job's pod) started as a kubelet would start it, without a kubelet: the image's entrypoint
 * under bubblewrap ({@link BwrapContainer}) with the Deployment's first container's {@code args} and {@code env}
 * ({@code fieldRef: metadata.namespace} resolved), its {@code configMap}, {@code secret} and {@code emptyDir}
 * volumes mounted where the container mounts them ({@code subPath} included), and the ServiceAccount's projected
 * token, the cluster's CA and the namespace at {@code /var/run/secrets/kubernetes.io/serviceaccount}, with
 * {@code KUBERNETES_SERVICE_HOST}/{@code PORT} pointing at the lab's API server: the operator configures itself
 * in-cluster and has exactly the rights its ServiceAccount is granted. The network is the host's, as with
 * {@code hostNetwork}.
 */
final class OperatorPod {

  static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

  private OperatorPod() {
  }

  /**
   * Waits until the pod's {@code http://127.0.0.1:healthPort/readyz} answers 200; fails with its log as soon as it
   * exits.
   */
  static void awaitReady(String what, BwrapContainer pod, int healthPort, Duration timeout) {
    HttpClient http = HttpClient.newHttpClient();
    await(what).atMost(timeout).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
      assertThat(pod.isAlive()).as("the operator runs; its log:\n%s", Files.readString(pod.log())).isTrue();
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz")).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    });
  }

  /** Starts pod {@code podName} of Deployment {@code namespace/name} from the image unpacked at {@code root}. */
  static BwrapContainer start(Lab lab, Path root, ImageConfig image, String namespace, String name, String podName,
      Path work) throws IOException {
    return start(lab, root, image, namespace, name, podName, work, UnaryOperator.identity());
  }

  /**
   * As {@link #start(Lab, Path, ImageConfig, String, String, String, Path)}, each file of its configMap volumes
   * passed through {@code files}: a second replica's ports, which on the host's network must differ from the
   * first's (in a cluster each pod has a network of its own).
   */
  static BwrapContainer start(Lab lab, Path root, ImageConfig image, String namespace, String name, String podName,
      Path work, UnaryOperator<String> files) throws IOException {
    Deployment deployment = lab.admin().apps().deployments().inNamespace(namespace).withName(name).require();
    return start(lab, root, image, namespace, deployment.getSpec().getTemplate().getSpec(), name, podName, work,
        files);
  }

  /** Starts {@code pod}, as created by a controller (a Job's pod), from the image unpacked at {@code root}. */
  static BwrapContainer start(Lab lab, Path root, ImageConfig image, Pod pod, Path work) throws IOException {
    return start(lab, root, image, pod.getMetadata().getNamespace(), pod.getSpec(), pod.getMetadata().getName(),
        pod.getMetadata().getName(), work, UnaryOperator.identity());
  }

  private static BwrapContainer start(Lab lab, Path root, ImageConfig image, String namespace, PodSpec pod,
      String name, String podName, Path work, UnaryOperator<String> files) throws IOException {
    KubernetesClient admin = lab.admin();
    Container container = pod.getContainers().get(0);
    Map<String, Volume> volumes = pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName,
        Function.identity()));

    BwrapContainer.Builder builder = BwrapContainer.builder(root, image).hostname(podName).args(container.getArgs());
    for (VolumeMount mount : container.getVolumeMounts()) {
      if (mount.getMountPath().equals(SERVICE_ACCOUNT_DIR)) {
        continue; // a created pod's projected kube-api-access volume, provided below
      }
      Volume volume = volumes.get(mount.getName());
      if (volume.getEmptyDir() != null) {
        builder.emptyDir(mount.getMountPath());
        continue;
      }
      Map<String, String> contents;
      if (volume.getConfigMap() != null) {
        ConfigMap configMap = admin.configMaps().inNamespace(namespace).withName(volume.getConfigMap().getName())
            .require();
        contents = configMap.getData() == null ? Map.of() : configMap.getData().entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> files.apply(e.getValue())));
      } else if (volume.getSecret() != null) {
        Secret secret = admin.secrets().inNamespace(namespace).withName(volume.getSecret().getSecretName()).require();
        contents = secret.getData() == null ? Map.of() : secret.getData().entrySet().stream().collect(Collectors.toMap(
            Map.Entry::getKey, e -> new String(Base64.getDecoder().decode(e.getValue()), StandardCharsets.UTF_8)));
      } else {
        throw new IllegalArgumentException("volume " + mount.getName() + " of " + name + ": only configMap, secret "
            + "and emptyDir volumes are emulated");
      }
      Path dir = Files.createDirectories(work.resolve(podName).resolve("volumes").resolve(mount.getName()));
      for (Map.Entry<String, String> file : contents.entrySet()) {
        Files.writeString(dir.resolve(file.getKey()), file.getValue());
      }
      String subPath = mount.getSubPath();
      builder.readOnly(subPath == null || subPath.isEmpty() ? dir : dir.resolve(subPath), mount.getMountPath());
    }

    Path serviceAccount = Files.createDirectories(work.resolve(podName).resolve("volumes/kube-api-access"));
    Files.writeString(serviceAccount.resolve("token"), lab.serviceAccountToken(namespace,
        pod.getServiceAccountName(), Duration.ofHours(2)));
    Files.writeString(serviceAccount.resolve("ca.crt"), lab.caPem());
    Files.writeString(serviceAccount.resolve("namespace"), namespace);
    builder.readOnly(serviceAccount, SERVICE_ACCOUNT_DIR);
    builder.env("KUBERNETES_SERVICE_HOST", lab.url().getHost());
    builder.env("KUBERNETES_SERVICE_PORT", Integer.toString(lab.url().getPort()));

    for (EnvVar env : container.getEnv() == null ? java.util.List.<EnvVar>of() : container.getEnv()) {
      if (env.getValue() != null) {
        builder.env(env.getName(), env.getValue());
      } else if (env.getValueFrom() != null && env.getValueFrom().getFieldRef() != null
          && env.getValueFrom().getFieldRef().getFieldPath().equals("metadata.namespace")) {
        builder.env(env.getName(), namespace);
      } else if (env.getValueFrom() != null && env.getValueFrom().getFieldRef() != null
          && env.getValueFrom().getFieldRef().getFieldPath().equals("metadata.name")) {
        builder.env(env.getName(), podName);
      } else {
        throw new IllegalArgumentException("env " + env.getName() + " of " + name + " is not emulated");
      }
    }
    return builder.start(work.resolve(podName + ".log"));
  }
}
