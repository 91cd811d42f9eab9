package io.kftrainer.operator.metrics;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * client-go's request counter under its name, as controller-runtime exposes it:
 * {@code rest_client_requests_total{code,method,host}}, one count per HTTP response of the operator's Kubernetes
 * client (watches included), {@code code} the status code ({@code <error>} when no response came: the connection
 * failed), {@code method} the HTTP method, {@code host} the API server's {@code host:port}. A fabric8 interceptor,
 * registered on the client beside the rate limiter.
 *
 * <p>fabric8 tells interceptors of a connection failure only when it is going to retry the request, so the last
 * failed attempt of a request that exhausts its retries is not counted (client-go counts every attempt).
 */
public final class RestClientMetrics implements Interceptor {

  /** The name the interceptor is registered under on the fabric8 HTTP client. */
  public static final String NAME = "trainer-rest-client-metrics";
  static final String CONNECTION_ERROR = "<error>";

  private final MeterRegistry registry;

  public RestClientMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    count(Integer.toString(response.code()), request);
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    count(CONNECTION_ERROR, request);
  }

  private void count(String code, HttpRequest request) {
    URI uri = request.uri();
    String host = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
    Counter.builder("rest.client.requests")
        .description("Number of HTTP requests, partitioned by status code, method, and host.")
        .tag("code", code).tag("method", request.method()).tag("host", Objects.toString(host, ""))
        .register(registry)
        .increment();
  }
}
