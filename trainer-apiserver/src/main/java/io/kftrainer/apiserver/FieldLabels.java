package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The field labels kube-apiserver accepts in a {@code fieldSelector}, per kind, and its 400 answer to any other
 * (its field label conversion functions, v1.35): {@code metadata.name} and {@code metadata.namespace} for every
 * kind; more for Pods, Nodes, ReplicationControllers, Events, Namespaces, Secrets, Services, Jobs and
 * CertificateSigningRequests; a custom resource's CRD adds its version's {@code selectableFields}. The selector is
 * then evaluated on the stored JSON ({@link FieldSelector}).
 */
final class FieldLabels {

  private static final String NAME = "metadata.name";
  private static final String NAMESPACE = "metadata.namespace";
  private static final String NOT_SUPPORTED = "field label not supported: %s";

  /** The labels of a kind and the message that refuses another ({@code %s}: the label). */
  private record Labels(Set<String> labels, String refusal) {
    Labels(String refusal, String... labels) {
      this(Set.of(labels), refusal);
    }
  }

  private static final Labels DEFAULT = new Labels("\"%s\" is not a known field selector: only \"" + NAME
      + "\", \"" + NAMESPACE + "\"", NAME, NAMESPACE);

  private static final Map<String, Labels> BUILTIN = Map.of(
      "/pods", new Labels(NOT_SUPPORTED, NAME, NAMESPACE, "spec.nodeName", "spec.restartPolicy",
          "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
          "status.podIPs", "status.nominatedNodeName", "spec.host"),
      "/nodes", new Labels(NOT_SUPPORTED, NAME, "spec.unschedulable"),
      "/replicationcontrollers", new Labels(NOT_SUPPORTED, NAME, NAMESPACE, "status.replicas"),
      "/events", new Labels(NOT_SUPPORTED, NAME, NAMESPACE, "involvedObject.kind", "involvedObject.namespace",
          "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
          "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"),
      "/namespaces", new Labels(NOT_SUPPORTED, NAME, "status.phase"),
      "/secrets", new Labels(NOT_SUPPORTED, NAME, NAMESPACE, "type"),
      "/services", new Labels(NOT_SUPPORTED, NAME, NAMESPACE, "spec.clusterIP", "spec.type"),
      "events.k8s.io/events", new Labels(NOT_SUPPORTED, NAME, NAMESPACE, "reason", "regarding.kind",
          "regarding.namespace", "regarding.name", "regarding.uid", "regarding.apiVersion",
          "regarding.resourceVersion", "regarding.fieldPath", "reportingController", "type"),
      "batch/jobs", new Labels("field label \"%s\" not supported for Job", NAME, NAMESPACE, "status.successful"),
      "certificates.k8s.io/certificatesigningrequests", new Labels(NOT_SUPPORTED, NAME, "spec.signerName"));

  private FieldLabels() {
  }

  /**
   * kube-apiserver's message refusing the first of {@code paths} that {@code target}'s kind does not accept, or null
   * when it accepts them all. {@code crd} is the custom resource's CRD (null for a built-in kind).
   */
  static String refusal(Target target, List<String> paths, JsonNode crd) {
    Labels labels = labels(target, crd);
    for (String path : paths) {
      if (!labels.labels().contains(path)) {
        return labels.refusal().formatted(path);
      }
    }
    return null;
  }

  private static Labels labels(Target target, JsonNode crd) {
    ResourcePath rp = target.rp();
    if (crd == null || Discovery.isBuiltin(rp.group(), rp.plural())) {
      return BUILTIN.getOrDefault(rp.group() + "/" + rp.plural(), DEFAULT);
    }
    Set<String> accepted = new LinkedHashSet<>(List.of(NAME));
    if (target.namespaced()) {
      accepted.add(NAMESPACE);
    }
    for (JsonNode version : crd.path("spec").path("versions")) {
      if (version.path("name").asText().equals(rp.version())) {
        version.path("selectableFields").forEach(field ->
            accepted.add(field.path("jsonPath").asText().replaceFirst("^\\.", "")));
      }
    }
    return new Labels(Set.copyOf(accepted), NOT_SUPPORTED);
  }
}
