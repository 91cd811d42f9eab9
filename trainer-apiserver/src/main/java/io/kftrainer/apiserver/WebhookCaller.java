package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLException;

/**
 * Calls one admission webhook the way the API server does: {@code POST}s an {@code admission.k8s.io/v1}
 * AdmissionReview over HTTPS to its {@code url}, or to its {@code service} (resolved by {@link ServiceRoutes},
 * default port 443), with {@code ?timeout=<timeoutSeconds>s}, trusting only its {@code caBundle}
 * ({@link CaBundleTrust}), and checks the answer (an AdmissionReview of the same version with a response for the
 * request's uid, a patch only with patch type {@code JSONPatch}).
 *
 * <p>Any failure is a {@link CallException} whose message reads like the API server's ({@code failed to call
 * webhook: Post "https://svc.ns.svc:443/path?timeout=10s": ...}), so that the failure policy can be applied and the
 * error reported as a cluster would report it.
 */
final class WebhookCaller {

  static final String API_VERSION = "admission.k8s.io/v1";
  static final String KIND = "AdmissionReview";
  private static final int DEFAULT_SERVICE_PORT = 443;
  private static final int MAX_CACHED_CLIENTS = 32;

  /** A call that failed: no answer, or one the API server would not accept. */
  static final class CallException extends Exception {

    private static final long serialVersionUID = 1L;

    CallException(String message) {
      super(message);
    }
  }

  /** Where a call goes, how messages show it, and the name the server's certificate must have. */
  private record Endpoint(URI target, String shown, String serverName) {
  }

  private final ServiceRoutes services;
  private final KubernetesSerialization serialization;
  private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

  WebhookCaller(ServiceRoutes services, KubernetesSerialization serialization) {
    this.services = Objects.requireNonNull(services, "services");
    this.serialization = Objects.requireNonNull(serialization, "serialization");
  }

  /**
   * Sends {@code review} to {@code webhook} and returns the webhook's response.
   *
   * @throws CallException if there is no usable response
   */
  AdmissionResponse call(RegisteredWebhook webhook, AdmissionReview review) throws CallException {
    String uid = review.getRequest().getUid();
    Endpoint endpoint = endpoint(webhook);
    String post = "Post \"" + endpoint.shown() + "\": ";
    HttpClient client = client(webhook.clientConfig().getCaBundle(), endpoint.serverName(), post);
    Duration timeout = Duration.ofSeconds(webhook.timeoutSeconds());
    HttpRequest request = HttpRequest.newBuilder(endpoint.target())
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(serialization.asJson(review)))
        .build();
    HttpResponse<String> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw failed(post + "context deadline exceeded");
    } catch (ConnectException e) {
      throw failed(post + "dial tcp " + endpoint.target().getHost() + ":" + endpoint.target().getPort()
          + ": connect: connection refused");
    } catch (SSLException e) {
      throw failed(post + "tls: failed to verify certificate: " + rootMessage(e));
    } catch (IOException e) {
      throw failed(post + rootMessage(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failed(post + "interrupted");
    }
    if (response.statusCode() != 200) {
      throw failed("an error on the server (\"" + response.body().strip() + "\") has prevented the request from "
          + "succeeding (post " + endpoint.shown() + ")");
    }
    return verify(response.body(), uid, webhook);
  }

  private AdmissionResponse verify(String body, String uid, RegisteredWebhook webhook) throws CallException {
    AdmissionReview answer;
    try {
      answer = serialization.unmarshal(body, AdmissionReview.class);
    } catch (RuntimeException e) {
      throw invalid("the body is not an AdmissionReview: " + rootMessage(e));
    }
    if (answer == null || !API_VERSION.equals(answer.getApiVersion()) || !KIND.equals(answer.getKind())) {
      throw invalid("expected webhook response of " + API_VERSION + ", Kind=" + KIND + ", got "
          + (answer == null ? "nothing" : answer.getApiVersion() + ", Kind=" + answer.getKind()));
    }
    AdmissionResponse response = answer.getResponse();
    if (response == null) {
      throw invalid("webhook response was absent");
    }
    if (!uid.equals(response.getUid())) {
      throw invalid("expected response.uid=\"" + uid + "\", got \"" + response.getUid() + "\"");
    }
    if (response.getAllowed() == null) {
      throw invalid("response.allowed is required");
    }
    boolean hasPatch = response.getPatch() != null && !response.getPatch().isEmpty();
    if (hasPatch && webhook.phase() == AdmissionHook.Phase.MUTATING) {
      if (response.getPatchType() == null) {
        throw invalid("webhook returned response.patch but not response.patchType");
      }
      if (!"JSONPatch".equals(response.getPatchType())) {
        throw invalid("webhook returned invalid response.patchType of \"" + response.getPatchType() + "\"");
      }
    }
    return response;
  }

  private Endpoint endpoint(RegisteredWebhook webhook) throws CallException {
    WebhookClientConfig config = webhook.clientConfig();
    String query = "?timeout=" + webhook.timeoutSeconds() + "s";
    if (config == null) {
      throw failed("the webhook has no clientConfig");
    }
    if (config.getUrl() != null && !config.getUrl().isEmpty()) {
      try {
        URI url = new URI(config.getUrl());
        if (!"https".equals(url.getScheme()) || url.getHost() == null) {
          throw failed("clientConfig.url must be an https URL with a host, was " + config.getUrl());
        }
        URI target = new URI(config.getUrl() + (url.getRawQuery() == null ? query : "&" + query.substring(1)));
        return new Endpoint(target, target.toString(), url.getHost());
      } catch (URISyntaxException e) {
        throw failed("invalid clientConfig.url " + config.getUrl() + ": " + e.getMessage());
      }
    }
    ServiceReference service = config.getService();
    if (service == null) {
      throw failed("the webhook's clientConfig has neither url nor service");
    }
    int port = service.getPort() == null ? DEFAULT_SERVICE_PORT : service.getPort();
    String path = service.getPath() == null ? "" : service.getPath();
    String serverName = service.getName() + "." + service.getNamespace() + ".svc";
    String shown = "https://" + serverName + ":" + port + path + query;
    InetSocketAddress address = services.resolve(service.getNamespace(), service.getName(), port)
        .orElseThrow(() -> failed("Post \"" + shown + "\": service \"" + service.getName() + "\" not found"));
    String host = address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress();
    try {
      URI target = new URI("https", null, host, address.getPort(), path.isEmpty() ? "/" : path,
          query.substring(1), null);
      return new Endpoint(target, shown, serverName);
    } catch (URISyntaxException e) {
      throw failed("Post \"" + shown + "\": " + e.getMessage());
    }
  }

  private HttpClient client(String caBundle, String serverName, String post) throws CallException {
    String key = (caBundle == null ? "" : caBundle) + "|" + serverName;
    HttpClient cached = clients.get(key);
    if (cached != null) {
      return cached;
    }
    HttpClient client;
    try {
      client = HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .sslContext(CaBundleTrust.sslContext(caBundle, serverName))
          .connectTimeout(Duration.ofSeconds(RegisteredWebhook.DEFAULT_TIMEOUT_SECONDS))
          .build();
    } catch (GeneralSecurityException e) {
      throw failed(post + "invalid caBundle: " + rootMessage(e));
    }
    if (clients.size() >= MAX_CACHED_CLIENTS) {
      clients.clear();
    }
    clients.put(key, client);
    return client;
  }

  private static CallException failed(String detail) {
    return new CallException("failed to call webhook: " + detail);
  }

  private static CallException invalid(String detail) {
    return new CallException("received invalid webhook response: " + detail);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }
}
