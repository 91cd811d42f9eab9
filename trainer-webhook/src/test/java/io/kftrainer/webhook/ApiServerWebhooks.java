package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.AdmissionHook;
import io.kftrainer.apiserver.AdmissionRequest;
import io.kftrainer.apiserver.AdmissionResponse;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.apiserver.CaBundleTrust;
import io.kftrainer.webhook.cert.WebhookConfigurations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The API server's side of admission webhooks, for the embedded API server: each webhook of the two
 * configurations of {@code manifests/base} becomes an admission hook that sends an AdmissionReview over HTTPS to
 * the operator, as kube-apiserver would. The hook calls {@code https://127.0.0.1:<port><clientConfig.service.path>},
 * trusts only the webhook's {@code caBundle}, and requires the certificate to name
 * {@code <service>.<namespace>.svc}. Rules are matched on group, resource and operation; an {@code objectSelector}'s
 * {@code In}/{@code NotIn} expressions are honoured. A denial reaches the client as kube-apiserver words it:
 * {@code admission webhook "<name>" denied the request: <message>}.
 *
 * <p>Configurations are read when registering (a hook must not call the API server that runs it).
 */
public final class ApiServerWebhooks {

  private ApiServerWebhooks() {
  }

  /** Registers one hook per webhook of both configurations; returns the hooks. */
  public static List<AdmissionHook> register(EmbeddedApiServer server, int port) {
    KubernetesClient client = server.client();
    List<AdmissionHook> hooks = new ArrayList<>();
    for (var webhook : WebhookConfigurations.mutating(client).getWebhooks()) {
      hooks.add(hook(webhook.getName(), AdmissionHook.Phase.MUTATING, webhook.getClientConfig(), webhook.getRules(),
          webhook.getObjectSelector(), port));
    }
    for (var webhook : WebhookConfigurations.validating(client).getWebhooks()) {
      hooks.add(hook(webhook.getName(), AdmissionHook.Phase.VALIDATING, webhook.getClientConfig(), webhook.getRules(),
          webhook.getObjectSelector(), port));
    }
    hooks.forEach(server::addAdmissionHook);
    return hooks;
  }

  private static AdmissionHook hook(String name, AdmissionHook.Phase phase, WebhookClientConfig clientConfig,
      List<RuleWithOperations> rules, LabelSelector objectSelector, int port) {
    HttpClient http = client(clientConfig);
    URI uri = URI.create("https://127.0.0.1:" + port + clientConfig.getService().getPath());
    return new AdmissionHook() {
      @Override
      public AdmissionResponse admit(AdmissionRequest request) {
        return call(name, http, uri, request);
      }

      @Override
      public boolean handles(AdmissionRequest request) {
        return request.subResource() == null && rules.stream().anyMatch(rule -> matches(rule, request))
            && selects(objectSelector, request);
      }

      @Override
      public AdmissionHook.Phase phase() {
        return phase;
      }
    };
  }

  private static AdmissionResponse call(String name, HttpClient http, URI uri, AdmissionRequest request) {
    var review = new io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest();
    review.setUid(request.uid());
    review.setOperation(request.operation().name());
    review.setKind(new GroupVersionKind(request.group(), request.kind(), request.version()));
    review.setResource(new GroupVersionResource(request.group(), request.resource(), request.version()));
    review.setNamespace(request.namespace());
    review.setName(request.name());
    review.setDryRun(request.dryRun());
    review.setObject(request.object());
    review.setOldObject(request.oldObject());
    try {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(TestingAdmission.review(review))).build(),
          HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException("webhook " + name + " answered " + response.statusCode());
      }
      var answer = TestingAdmission.SERIALIZATION.unmarshal(response.body(), AdmissionReview.class).getResponse();
      if (!request.uid().equals(answer.getUid())) {
        throw new IllegalStateException("webhook " + name + " answered for another uid");
      }
      String[] warnings = answer.getWarnings() == null ? new String[0] : answer.getWarnings().toArray(String[]::new);
      if (!answer.getAllowed()) {
        Status status = answer.getStatus();
        status.setMessage("admission webhook \"" + name + "\" denied the request: " + status.getMessage());
        return AdmissionResponse.deny(status).withWarnings(warnings);
      }
      if (answer.getPatch() != null) {
        return AdmissionResponse.patch(new String(Base64.getDecoder().decode(answer.getPatch()),
            StandardCharsets.UTF_8)).withWarnings(warnings);
      }
      return AdmissionResponse.allow().withWarnings(warnings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static boolean matches(RuleWithOperations rule, AdmissionRequest request) {
    return rule.getApiGroups().contains(request.group()) && rule.getResources().contains(request.resource())
        && rule.getOperations().contains(request.operation().name());
  }

  private static boolean selects(LabelSelector selector, AdmissionRequest request) {
    if (selector == null || selector.getMatchExpressions() == null) {
      return true;
    }
    Map<String, String> labels = request.object().getMetadata().getLabels() == null ? Map.of()
        : request.object().getMetadata().getLabels();
    for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
      boolean in = requirement.getValues().contains(labels.get(requirement.getKey()));
      if ("In".equals(requirement.getOperator()) && !in || "NotIn".equals(requirement.getOperator()) && in) {
        return false;
      }
    }
    return true;
  }

  private static HttpClient client(WebhookClientConfig clientConfig) {
    String host = clientConfig.getService().getName() + "." + clientConfig.getService().getNamespace() + ".svc";
    try {
      return HttpClient.newBuilder().sslContext(CaBundleTrust.sslContext(clientConfig.getCaBundle(), host))
          .connectTimeout(Duration.ofSeconds(5)).build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
