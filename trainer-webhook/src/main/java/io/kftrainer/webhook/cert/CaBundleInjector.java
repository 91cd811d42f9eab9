package io.kftrainer.webhook.cert;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.URI;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the webhook CA bundle as the {@code caBundle} of the operator's two webhook configurations,
 * {@value #VALIDATING_CONFIGURATION} and {@value #MUTATING_CONFIGURATION} (the names RBAC grants writes to). Each
 * webhook of a configuration that calls a Service gets the bundle, and each that calls a URL whose host the serving
 * certificate names (the chart's {@code webhook.url} at the address the operator listens on); a webhook that calls
 * another host (a proxy with a certificate of its own) is left alone.
 *
 * <p>A configuration is written only when one of its webhooks has a different bundle, with a JSON patch that
 * tests each webhook's name at its index before setting its bundle, so that a concurrent edit of the list fails
 * the patch instead of touching the wrong webhook. A configuration that does not exist is skipped with a warning
 * (the operator run outside the installation manifests); other API errors are thrown.
 */
public final class CaBundleInjector {

  public static final String VALIDATING_CONFIGURATION = "validator.trainer.kubeflow.org";
  public static final String MUTATING_CONFIGURATION = "defaulter.trainer.kubeflow.org";

  private static final Logger LOG = LoggerFactory.getLogger(CaBundleInjector.class);

  private final KubernetesClient client;
  private final Set<String> servedHosts;

  /** @param servedHosts the DNS names and IP addresses the serving certificate names */
  public CaBundleInjector(KubernetesClient client, Collection<String> servedHosts) {
    this.client = Objects.requireNonNull(client, "client");
    this.servedHosts = Set.copyOf(servedHosts);
  }

  /**
   * Sets {@code caBundlePem} in both configurations where it differs.
   *
   * @return the names of the configurations written
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if one cannot be read or written
   */
  public List<String> inject(byte[] caBundlePem) {
    String encoded = Base64.getEncoder().encodeToString(caBundlePem);
    boolean validating = injectValidating(caBundlePem, encoded);
    boolean mutating = injectMutating(caBundlePem, encoded);
    return Stream.of(validating ? VALIDATING_CONFIGURATION : null,
        mutating ? MUTATING_CONFIGURATION : null).filter(Objects::nonNull).toList();
  }

  private boolean injectValidating(byte[] bundle, String encoded) {
    var resource = client.admissionRegistration().v1().validatingWebhookConfigurations()
        .withName(VALIDATING_CONFIGURATION);
    var configuration = resource.get();
    if (configuration == null) {
      return missing(VALIDATING_CONFIGURATION);
    }
    List<Webhook> webhooks = configuration.getWebhooks() == null ? List.of()
        : configuration.getWebhooks().stream().map(w -> new Webhook(w.getName(), w.getClientConfig())).toList();
    return patch(webhooks, servedHosts, bundle, encoded, VALIDATING_CONFIGURATION,
        patch -> resource.patch(PatchContext.of(PatchType.JSON), patch));
  }

  private boolean injectMutating(byte[] bundle, String encoded) {
    var resource = client.admissionRegistration().v1().mutatingWebhookConfigurations()
        .withName(MUTATING_CONFIGURATION);
    var configuration = resource.get();
    if (configuration == null) {
      return missing(MUTATING_CONFIGURATION);
    }
    List<Webhook> webhooks = configuration.getWebhooks() == null ? List.of()
        : configuration.getWebhooks().stream().map(w -> new Webhook(w.getName(), w.getClientConfig())).toList();
    return patch(webhooks, servedHosts, bundle, encoded, MUTATING_CONFIGURATION,
        patch -> resource.patch(PatchContext.of(PatchType.JSON), patch));
  }

  private record Webhook(String name, WebhookClientConfig clientConfig) {

    /** Whether it calls this operator: its Service, or a URL whose host the certificate names. */
    boolean callsOperator(Set<String> servedHosts) {
      if (clientConfig == null) {
        return false;
      }
      if (clientConfig.getService() != null) {
        return true;
      }
      try {
        String host = clientConfig.getUrl() == null ? null : URI.create(clientConfig.getUrl()).getHost();
        // an IPv6 literal's host keeps its brackets
        return host != null && servedHosts.contains(host.replaceAll("^\\[(.*)]$", "$1"));
      } catch (IllegalArgumentException e) {
        return false;
      }
    }

    boolean hasBundle(byte[] bundle) {
      String current = clientConfig.getCaBundle();
      if (current == null || current.isEmpty()) {
        return false;
      }
      try {
        return Arrays.equals(Base64.getDecoder().decode(current), bundle);
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
  }

  private static boolean patch(List<Webhook> webhooks, Set<String> servedHosts, byte[] bundle, String encoded,
      String configuration, Consumer<String> send) {
    ArrayNode operations = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < webhooks.size(); i++) {
      Webhook webhook = webhooks.get(i);
      if (webhook.callsOperator(servedHosts) && !webhook.hasBundle(bundle)) {
        operations.addObject().put("op", "test").put("path", "/webhooks/" + i + "/name").put("value", webhook.name());
        operations.addObject().put("op", "add").put("path", "/webhooks/" + i + "/clientConfig/caBundle")
            .put("value", encoded);
      }
    }
    if (operations.isEmpty()) {
      return false;
    }
    send.accept(operations.toString());
    LOG.info("Set the webhook CA bundle in {}", configuration);
    return true;
  }

  private static boolean missing(String configuration) {
    LOG.warn("Webhook configuration {} does not exist: its caBundle is not set, so the API server cannot call this "
        + "operator's webhooks through it", configuration);
    return false;
  }
}
