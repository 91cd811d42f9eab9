package io.kftrainer.operator.app;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The JDK's HTTP client, whose asynchronous sends run as blocking {@link #send}s on a bounded pool of threads.
 *
 * <p>Why: the JDK's {@code sendAsync} completes every response on {@code CompletableFuture}'s default executor,
 * whatever executor the client was given (JDK-8204339). That executor is the common {@code ForkJoinPool} only when
 * its parallelism is above 1; with 2 CPUs or fewer (a pod with a CPU limit of 1 or 2) it starts a new thread per
 * task: fabric8, which sends every request with {@code sendAsync}, then started a thread per API request. Making the
 * common pool the default executor instead ({@code java.util.concurrent.ForkJoinPool.common.parallelism}) ties every
 * HTTP response of the JVM to a pool of 2 threads that any blocking task in it (a parallel stream that calls the API
 * server) starves: tried, and {@code local}'s start hung. A blocking {@code send} has no such hand-off.
 *
 * <p>A pool thread is held from the request's start to its response's headers only: fabric8's body handler returns
 * at the headers and reads the body asynchronously (a watch holds no thread). So at most the pool's size of requests
 * wait for headers at once; the others queue. A cancelled future does not abort the exchange: fabric8 cancels the
 * body of a response that arrives after its future was cancelled or timed out. WebSockets are the JDK's.
 */
final class PooledSendHttpClient extends HttpClient {

  private final HttpClient delegate;
  private final Executor senders;

  private PooledSendHttpClient(HttpClient delegate, Executor senders) {
    this.delegate = delegate;
    this.senders = senders;
  }

  /** A builder of the JDK's client whose clients send on {@code senders} (not the client's own executor). */
  static HttpClient.Builder newBuilder(Executor senders) {
    return new Builder(HttpClient.newBuilder(), senders);
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> responseBodyHandler)
      throws IOException, InterruptedException {
    return delegate.send(request, responseBodyHandler);
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
      HttpResponse.BodyHandler<T> responseBodyHandler) {
    CompletableFuture<HttpResponse<T>> response = new CompletableFuture<>();
    try {
      senders.execute(() -> {
        if (response.isDone()) {
          return; // cancelled while queued
        }
        try {
          response.complete(delegate.send(request, responseBodyHandler));
        } catch (InterruptedException e) {
          response.completeExceptionally(e);
          Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
          response.completeExceptionally(e);
        }
      });
    } catch (RejectedExecutionException e) {
      response.completeExceptionally(new IOException("the HTTP client is closed", e));
    }
    return response;
  }

  /** Push promises are an HTTP/2 feature this client's users do not ask for: sent as a plain request. */
  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
      HttpResponse.BodyHandler<T> responseBodyHandler, HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
    return sendAsync(request, responseBodyHandler);
  }

  @Override
  public WebSocket.Builder newWebSocketBuilder() {
    return delegate.newWebSocketBuilder();
  }

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return delegate.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return delegate.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return delegate.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return delegate.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return delegate.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return delegate.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return delegate.authenticator();
  }

  @Override
  public Version version() {
    return delegate.version();
  }

  @Override
  public Optional<java.util.concurrent.Executor> executor() {
    return delegate.executor();
  }

  /** The JDK's builder, building a {@link PooledSendHttpClient} around the client it builds. */
  private static final class Builder implements HttpClient.Builder {

    private final HttpClient.Builder delegate;
    private final Executor senders;

    Builder(HttpClient.Builder delegate, Executor senders) {
      this.delegate = delegate;
      this.senders = senders;
    }

    @Override
    public Builder cookieHandler(CookieHandler cookieHandler) {
      delegate.cookieHandler(cookieHandler);
      return this;
    }

    @Override
    public Builder connectTimeout(Duration duration) {
      delegate.connectTimeout(duration);
      return this;
    }

    @Override
    public Builder sslContext(SSLContext sslContext) {
      delegate.sslContext(sslContext);
      return this;
    }

    @Override
    public Builder sslParameters(SSLParameters sslParameters) {
      delegate.sslParameters(sslParameters);
      return this;
    }

    @Override
    public Builder executor(Executor executor) {
      delegate.executor(executor);
      return this;
    }

    @Override
    public Builder followRedirects(Redirect policy) {
      delegate.followRedirects(policy);
      return this;
    }

    @Override
    public Builder version(Version version) {
      delegate.version(version);
      return this;
    }

    @Override
    public Builder priority(int priority) {
      delegate.priority(priority);
      return this;
    }

    @Override
    public Builder proxy(ProxySelector proxySelector) {
      delegate.proxy(proxySelector);
      return this;
    }

    @Override
    public Builder authenticator(Authenticator authenticator) {
      delegate.authenticator(authenticator);
      return this;
    }

    @Override
    public HttpClient build() {
      return new PooledSendHttpClient(delegate.build(), senders);
    }
  }
}
