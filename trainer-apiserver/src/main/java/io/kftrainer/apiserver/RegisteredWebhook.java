package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One webhook of a stored Validating- or MutatingWebhookConfiguration, with the API server's rules for when it is
 * called ({@link #matches}).
 *
 * @param configuration the name of the configuration it belongs to
 * @param name the webhook's name, which denials quote
 * @param phase mutating or validating
 * @param clientConfig where it is served ({@code url} or {@code service}) and the CA bundle that signs it
 * @param rules operations, API groups, versions, resources and scope it is called for
 * @param failurePolicy {@code Fail} (the default) or {@code Ignore}: what a failed call means
 * @param objectSelector labels the object (or, on update, the old object) must have
 * @param namespaceSelector labels the object's namespace must have
 * @param timeoutSeconds how long a call may take (default 10)
 * @param sideEffects {@code None}, {@code NoneOnDryRun}, {@code Some} or {@code Unknown}
 * @param matchConditions how many CEL match conditions it has (not evaluated here)
 */
record RegisteredWebhook(String configuration, String name, AdmissionHook.Phase phase,
    WebhookClientConfig clientConfig, List<RuleWithOperations> rules, String failurePolicy,
    LabelSelector objectSelector, LabelSelector namespaceSelector, int timeoutSeconds, String sideEffects,
    int matchConditions) {

  static final int DEFAULT_TIMEOUT_SECONDS = 10;
  private static final String ALL = "*";

  RegisteredWebhook {
    rules = rules == null ? List.of() : List.copyOf(rules);
    failurePolicy = failurePolicy == null ? "Fail" : failurePolicy;
    timeoutSeconds = timeoutSeconds <= 0 ? DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    sideEffects = sideEffects == null ? "Unknown" : sideEffects;
  }

  static List<RegisteredWebhook> of(ValidatingWebhookConfiguration configuration) {
    List<RegisteredWebhook> webhooks = new ArrayList<>();
    String name = configuration.getMetadata().getName();
    for (ValidatingWebhook w : configuration.getWebhooks() == null ? List.<ValidatingWebhook>of()
        : configuration.getWebhooks()) {
      webhooks.add(new RegisteredWebhook(name, w.getName(), AdmissionHook.Phase.VALIDATING, w.getClientConfig(),
          w.getRules(), w.getFailurePolicy(), LabelSelector.of(w.getObjectSelector()),
          LabelSelector.of(w.getNamespaceSelector()),
          timeout(w.getTimeoutSeconds()), w.getSideEffects(), count(w.getMatchConditions())));
    }
    return webhooks;
  }

  static List<RegisteredWebhook> of(MutatingWebhookConfiguration configuration) {
    List<RegisteredWebhook> webhooks = new ArrayList<>();
    String name = configuration.getMetadata().getName();
    for (MutatingWebhook w : configuration.getWebhooks() == null ? List.<MutatingWebhook>of()
        : configuration.getWebhooks()) {
      webhooks.add(new RegisteredWebhook(name, w.getName(), AdmissionHook.Phase.MUTATING, w.getClientConfig(),
          w.getRules(), w.getFailurePolicy(), LabelSelector.of(w.getObjectSelector()),
          LabelSelector.of(w.getNamespaceSelector()),
          timeout(w.getTimeoutSeconds()), w.getSideEffects(), count(w.getMatchConditions())));
    }
    return webhooks;
  }

  boolean ignoresFailures() {
    return "Ignore".equals(failurePolicy);
  }

  /** Whether a dry-run request may be sent to it: only a webhook without side effects (or without on dry runs). */
  boolean supportsDryRun() {
    return "None".equals(sideEffects) || "NoneOnDryRun".equals(sideEffects);
  }

  /**
   * Whether the API server calls this webhook for {@code request}: some rule matches its operation, group, version,
   * resource (and subresource) and scope; the namespace's labels satisfy the namespace selector (cluster-scoped
   * objects always do); and the object's labels, or on update the old object's, satisfy the object selector.
   *
   * @param namespaceLabels the labels of the request's namespace (empty when cluster-scoped or unknown)
   */
  boolean matches(AdmissionRequest request, Map<String, String> namespaceLabels) {
    if (rules.stream().noneMatch(rule -> matches(rule, request))) {
      return false;
    }
    if (request.namespace() != null && !namespaceSelector.matches(namespaceLabels)) {
      return false;
    }
    return objectSelector.matches(labels(request.object()))
        || request.oldObject() != null && objectSelector.matches(labels(request.oldObject()));
  }

  private static boolean matches(RuleWithOperations rule, AdmissionRequest request) {
    return matchesAny(rule.getOperations(), request.operation().name())
        && matchesAny(rule.getApiGroups(), request.group())
        && matchesAny(rule.getApiVersions(), request.version())
        && matchesResource(rule.getResources(), request.resource(), request.subResource())
        && matchesScope(rule.getScope(), request.namespace() != null);
  }

  private static boolean matchesAny(List<String> allowed, String value) {
    return allowed != null && (allowed.contains(ALL) || allowed.contains(value));
  }

  /**
   * Entries are {@code resource} or {@code resource/subresource}, either part {@code *} for any; a plain
   * {@code *} is every resource but no subresource.
   */
  private static boolean matchesResource(List<String> allowed, String resource, String subResource) {
    if (allowed == null) {
      return false;
    }
    for (String entry : allowed) {
      int slash = entry.indexOf('/');
      String wantedResource = slash < 0 ? entry : entry.substring(0, slash);
      String wantedSub = slash < 0 ? null : entry.substring(slash + 1);
      boolean resourceMatches = ALL.equals(wantedResource) || wantedResource.equals(resource);
      boolean subMatches = wantedSub == null ? subResource == null
          : ALL.equals(wantedSub) || wantedSub.equals(subResource);
      if (resourceMatches && subMatches) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesScope(String scope, boolean namespaced) {
    if (scope == null || ALL.equals(scope)) {
      return true;
    }
    return "Namespaced".equals(scope) == namespaced;
  }

  private static Map<String, String> labels(io.fabric8.kubernetes.api.model.HasMetadata object) {
    return object == null || object.getMetadata() == null || object.getMetadata().getLabels() == null ? Map.of()
        : object.getMetadata().getLabels();
  }

  private static int timeout(Integer seconds) {
    return seconds == null ? DEFAULT_TIMEOUT_SECONDS : seconds;
  }

  private static int count(List<?> list) {
    return list == null ? 0 : list.size();
  }
}
