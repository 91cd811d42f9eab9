package io.kftrainer.statusserver;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The status server's few calls to the API server, made with the HTTP client (and so the credentials and rate
 * limit) of the operator's fabric8 client: paths the typed DSL does not serve ({@code /.well-known/...}), and the
 * status apply, whose Status answer the server hands on as it is. A call takes at most {@link #TIMEOUT}.
 */
final class ClusterApi {

  static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** An answer of the API server: its HTTP code and body. */
  record Answer(int code, String body) {
    boolean isSuccessful() {
      return code >= 200 && code < 300;
    }
  }

  private final String base;
  private final HttpClient http;

  ClusterApi(KubernetesClient client) {
    Objects.requireNonNull(client, "client");
    String master = client.getMasterUrl().toString();
    this.base = master.endsWith("/") ? master.substring(0, master.length() - 1) : master;
    this.http = client.getHttpClient();
  }

  /** The absolute URL of an API path. */
  String url(String path) {
    return base + path;
  }

  /** GET of {@code path}, accepting {@code mediaType} (kube-apiserver answers 406 to another). */
  Answer get(String path, String mediaType) throws IOException {
    return send(http.newHttpRequestBuilder().uri(url(path)).header("Accept", mediaType).build());
  }

  Answer patch(String path, String contentType, String body) throws IOException {
    return send(http.newHttpRequestBuilder().uri(url(path)).method("PATCH", contentType, body)
        .header("Accept", "application/json").build());
  }

  private Answer send(HttpRequest request) throws IOException {
    try {
      HttpResponse<String> response = http.sendAsync(request, String.class)
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return new Answer(response.code(), response.body() == null ? "" : response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while calling the API server");
    } catch (ExecutionException e) {
      throw new IOException("cannot reach the API server: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("the API server did not answer within " + TIMEOUT.toSeconds() + "s", e);
    }
  }
}
