package io.kftrainer.apiserver;

import java.util.Set;

/**
 * Which kinds carry {@code metadata.generation}: custom resources, CRDs, and the built-in kinds whose registry
 * strategy in kube-apiserver sets it ({@code Generation = 1} on create, bumped when the spec changes: workloads,
 * pods and pod templates, admission configurations, policies...). ConfigMaps, Secrets, ServiceAccounts, Namespaces,
 * RBAC objects, Leases, Events and the other built-in kinds have none.
 */
final class Generation {

  /** {@code group/plural} of the built-in kinds with a generation (kube-apiserver v1.35's strategies). */
  private static final Set<String> BUILTIN = Set.of(
      "/pods", "/podtemplates", "/replicationcontrollers",
      "apps/daemonsets", "apps/deployments", "apps/replicasets", "apps/statefulsets",
      "batch/cronjobs", "batch/jobs",
      "admissionregistration.k8s.io/mutatingwebhookconfigurations",
      "admissionregistration.k8s.io/validatingwebhookconfigurations",
      "admissionregistration.k8s.io/validatingadmissionpolicies",
      "admissionregistration.k8s.io/validatingadmissionpolicybindings",
      "admissionregistration.k8s.io/mutatingadmissionpolicies",
      "admissionregistration.k8s.io/mutatingadmissionpolicybindings",
      "apiextensions.k8s.io/customresourcedefinitions",
      "discovery.k8s.io/endpointslices",
      "flowcontrol.apiserver.k8s.io/flowschemas", "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations",
      "networking.k8s.io/ingresses", "networking.k8s.io/ingressclasses", "networking.k8s.io/networkpolicies",
      "policy/poddisruptionbudgets",
      "resource.k8s.io/deviceclasses", "resource.k8s.io/devicetaintrules", "resource.k8s.io/resourceslices",
      "scheduling.k8s.io/priorityclasses",
      "storage.k8s.io/csidrivers");

  private Generation() {
  }

  /** Whether objects of {@code group}/{@code plural} have a {@code metadata.generation}. */
  static boolean tracked(String group, String plural) {
    return !Discovery.isBuiltin(group, plural) || BUILTIN.contains(group + "/" + plural);
  }
}
