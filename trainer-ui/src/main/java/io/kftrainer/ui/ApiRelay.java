package io.kftrainer.ui;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UI's window on the Kubernetes API: the reads its pages make ({@link #ALLOWED}, GET only, Secrets never), sent
 * as the user ({@link UserApi}) and relayed as the API server answers them, refusals included. Watches and followed
 * logs stream through without a thread each: the request handler returns once the request is sent, and the JDK
 * client's threads copy each chunk to the browser as it arrives.
 */
final class ApiRelay {

  private static final String NAME = "[a-z0-9]([-a-z0-9.]*[a-z0-9])?";
  private static final String NAMESPACED = "(/namespaces/" + NAME + ")?";
  /** The paths the pages read. */
  static final Pattern ALLOWED = Pattern.compile(String.join("|",
      "/api/v1/namespaces(/" + NAME + ")?",
      "/api/v1" + NAMESPACED + "/(pods|events)",
      "/api/v1/namespaces/" + NAME + "/pods/" + NAME + "(/log)?",
      "/apis/trainer\\.kubeflow\\.org/v1alpha1" + NAMESPACED + "/(trainjobs|optimizationjobs|trainingruntimes)(/"
          + NAME + ")?",
      "/apis/trainer\\.kubeflow\\.org/v1alpha1/clustertrainingruntimes(/" + NAME + ")?",
      "/apis/jobset\\.x-k8s\\.io/v1alpha2" + NAMESPACED + "/jobsets(/" + NAME + ")?",
      "/apis/batch/v1" + NAMESPACED + "/jobs(/" + NAME + ")?"));
  private static final Logger LOG = LoggerFactory.getLogger(ApiRelay.class);

  private final HttpClient http;

  ApiRelay(HttpClient http) {
    this.http = http;
  }

  static boolean allowed(String path) {
    return ALLOWED.matcher(path).matches();
  }

  /** Sends {@code request} and relays the answer to {@code exchange}, which it closes; returns at once. */
  void relay(HttpExchange exchange, HttpRequest request) {
    http.sendAsync(request, HttpResponse.BodyHandlers.ofPublisher()).whenComplete((response, failure) -> {
      if (failure != null) {
        LOG.debug("Cannot read {} for the UI: {}", request.uri().getPath(), failure.toString());
        Answers.send(exchange, Answers.status(502, "BadGateway", "The API server cannot be reached"));
        return;
      }
      try {
        exchange.getResponseHeaders().set("Content-Type",
            response.headers().firstValue("Content-Type").orElse("application/json"));
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.sendResponseHeaders(response.statusCode(), 0);
      } catch (IOException e) {
        exchange.close();
        response.body().subscribe(new Discard());
        return;
      }
      response.body().subscribe(new Copy(exchange));
    });
  }

  /** Copies each chunk to the browser as it comes; a browser gone cancels the upstream request. */
  private static final class Copy implements Flow.Subscriber<List<ByteBuffer>> {
    private final HttpExchange exchange;
    private final OutputStream out;
    private Flow.Subscription subscription;

    Copy(HttpExchange exchange) {
      this.exchange = exchange;
      this.out = exchange.getResponseBody();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      try {
        for (ByteBuffer buffer : buffers) {
          byte[] bytes = new byte[buffer.remaining()];
          buffer.get(bytes);
          out.write(bytes);
        }
        out.flush();
        subscription.request(1);
      } catch (IOException e) {
        subscription.cancel();
        exchange.close();
      }
    }

    @Override
    public void onError(Throwable failure) {
      exchange.close();
    }

    @Override
    public void onComplete() {
      exchange.close();
    }
  }

  private static final class Discard implements Flow.Subscriber<List<ByteBuffer>> {
    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.cancel();
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
    }

    @Override
    public void onError(Throwable throwable) {
    }

    @Override
    public void onComplete() {
    }
  }
}
