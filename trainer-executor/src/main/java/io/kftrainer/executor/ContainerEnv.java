package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's environment as the kubelet builds it: {@code envFrom} first, then {@code env} in order, each value
 * {@code $(VAR)}-expanded against what precedes it; {@code fieldRef}, {@code resourceFieldRef},
 * {@code configMapKeyRef} and {@code secretKeyRef} read the pod and the API. A missing non-optional source fails
 * the container ({@code CreateContainerConfigError}), as on a node.
 */
final class ContainerEnv {

  private static final Pattern FIELD_MAP = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

  static final class ConfigError extends RuntimeException {
    ConfigError(String message) {
      super(message);
    }
  }

  private final KubernetesClient client;

  ContainerEnv(KubernetesClient client) {
    this.client = client;
  }

  Map<String, String> resolve(Pod pod, Container container, String podIp, Map<String, String> base) {
    Map<String, String> env = new LinkedHashMap<>(base);
    String ns = pod.getMetadata().getNamespace();
    for (EnvFromSource from : Optional.ofNullable(container.getEnvFrom()).orElse(java.util.List.of())) {
      String prefix = Optional.ofNullable(from.getPrefix()).orElse("");
      if (from.getConfigMapRef() != null) {
        ConfigMap cm = client.configMaps().inNamespace(ns).withName(from.getConfigMapRef().getName()).get();
        if (cm == null) {
          if (!Boolean.TRUE.equals(from.getConfigMapRef().getOptional())) {
            throw new ConfigError("configmap \"" + from.getConfigMapRef().getName() + "\" not found");
          }
        } else if (cm.getData() != null) {
          cm.getData().forEach((k, v) -> env.put(prefix + k, v));
        }
      }
      if (from.getSecretRef() != null) {
        Secret secret = client.secrets().inNamespace(ns).withName(from.getSecretRef().getName()).get();
        if (secret == null) {
          if (!Boolean.TRUE.equals(from.getSecretRef().getOptional())) {
            throw new ConfigError("secret \"" + from.getSecretRef().getName() + "\" not found");
          }
        } else {
          secretData(secret).forEach((k, v) -> env.put(prefix + k, v));
        }
      }
    }
    for (EnvVar var : Optional.ofNullable(container.getEnv()).orElse(java.util.List.of())) {
      String value = var.getValueFrom() != null ? valueFrom(pod, container, podIp, var)
          : VarExpansion.expand(Optional.ofNullable(var.getValue()).orElse(""), env);
      if (value != null) {
        env.put(var.getName(), value);
      }
    }
    return env;
  }

  private String valueFrom(Pod pod, Container container, String podIp, EnvVar var) {
    EnvVarSource source = var.getValueFrom();
    String ns = pod.getMetadata().getNamespace();
    if (source.getFieldRef() != null) {
      return field(pod, podIp, source.getFieldRef().getFieldPath());
    }
    if (source.getResourceFieldRef() != null) {
      return resource(container, source.getResourceFieldRef().getResource(),
          source.getResourceFieldRef().getDivisor());
    }
    if (source.getConfigMapKeyRef() != null) {
      var ref = source.getConfigMapKeyRef();
      ConfigMap cm = client.configMaps().inNamespace(ns).withName(ref.getName()).get();
      String value = cm == null || cm.getData() == null ? null : cm.getData().get(ref.getKey());
      if (value == null && !Boolean.TRUE.equals(ref.getOptional())) {
        throw new ConfigError(cm == null ? "configmap \"" + ref.getName() + "\" not found"
            : "couldn't find key " + ref.getKey() + " in ConfigMap " + ns + "/" + ref.getName());
      }
      return value;
    }
    if (source.getSecretKeyRef() != null) {
      var ref = source.getSecretKeyRef();
      Secret secret = client.secrets().inNamespace(ns).withName(ref.getName()).get();
      String value = secret == null ? null : secretData(secret).get(ref.getKey());
      if (value == null && !Boolean.TRUE.equals(ref.getOptional())) {
        throw new ConfigError(secret == null ? "secret \"" + ref.getName() + "\" not found"
            : "couldn't find key " + ref.getKey() + " in Secret " + ns + "/" + ref.getName());
      }
      return value;
    }
    return null;
  }

  static String field(Pod pod, String podIp, String path) {
    Matcher m = FIELD_MAP.matcher(path);
    if (m.matches()) {
      Map<String, String> map = "labels".equals(m.group(1)) ? pod.getMetadata().getLabels()
          : pod.getMetadata().getAnnotations();
      return map == null ? "" : map.getOrDefault(m.group(2), "");
    }
    return switch (path) {
      case "metadata.name" -> pod.getMetadata().getName();
      case "metadata.namespace" -> pod.getMetadata().getNamespace();
      case "metadata.uid" -> pod.getMetadata().getUid();
      case "spec.nodeName" -> Kubelet.NODE_NAME;
      case "spec.serviceAccountName" -> Optional.ofNullable(pod.getSpec().getServiceAccountName()).orElse("default");
      case "status.hostIP", "status.hostIPs" -> "127.0.0.1";
      case "status.podIP", "status.podIPs" -> podIp;
      default -> throw new ConfigError("unsupported fieldRef " + path);
    };
  }

  private static String resource(Container container, String resource, Quantity divisor) {
    var resources = container.getResources();
    String[] parts = resource.split("\\.", 2);
    Map<String, Quantity> values = resources == null ? null
        : "limits".equals(parts[0]) ? resources.getLimits() : resources.getRequests();
    Quantity quantity = values == null ? null : values.get(parts[1]);
    if (quantity == null) {
      // as the kubelet: an unset limit is the node's capacity
      quantity = "cpu".equals(parts[1]) ? new Quantity(String.valueOf(Runtime.getRuntime().availableProcessors()))
          : new Quantity(String.valueOf(Runtime.getRuntime().maxMemory()));
    }
    java.math.BigDecimal amount = quantity.getNumericalAmount();
    java.math.BigDecimal by = divisor == null ? java.math.BigDecimal.ONE : divisor.getNumericalAmount();
    return amount.divide(by, 0, java.math.RoundingMode.CEILING).toPlainString();
  }

  static Map<String, String> secretData(Secret secret) {
    Map<String, String> data = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k,
          new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
    }
    if (secret.getStringData() != null) {
      data.putAll(secret.getStringData());
    }
    return data;
  }
}
