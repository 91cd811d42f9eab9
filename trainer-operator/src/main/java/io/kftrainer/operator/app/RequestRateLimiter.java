package io.kftrainer.operator.app;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * client-go's client-side rate limit ({@code --kube-api-qps}, {@code --kube-api-burst}) as a fabric8 request
 * {@link Interceptor}: a token bucket holding up to {@code burst} tokens, refilled at {@code qps} tokens per second;
 * every request to the API server (watches included) takes one token, waiting for it if the bucket is empty.
 *
 * <p>fabric8 7.5 has no such setting of its own: its {@code maxConcurrentRequests} limits requests in flight (and
 * only its OkHttp and Vert.x clients honour it), not their rate. Waiting happens on the thread that sends the
 * request, as in client-go.
 */
public final class RequestRateLimiter implements Interceptor {

  /** The name the interceptor is registered under on the fabric8 HTTP client. */
  public static final String NAME = "trainer-rate-limit";

  private final double qps;
  private final int burst;
  private final LongSupplier nanoClock;
  private final Sleeper sleeper;
  private double tokens;
  private long refilledAt;

  /** Waits for the next token; replaceable in tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleepNanos(long nanos);
  }

  /**
   * @param qps sustained requests per second; zero or less disables the limit
   * @param burst the bucket's size (at least 1)
   */
  public RequestRateLimiter(double qps, int burst) {
    this(qps, burst, System::nanoTime, LockSupport::parkNanos);
  }

  RequestRateLimiter(double qps, int burst, LongSupplier nanoClock, Sleeper sleeper) {
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, was " + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.nanoClock = nanoClock;
    this.sleeper = sleeper;
    this.tokens = burst;
    this.refilledAt = nanoClock.getAsLong();
  }

  public double qps() {
    return qps;
  }

  public int burst() {
    return burst;
  }

  public boolean isUnlimited() {
    return qps <= 0;
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    acquire();
  }

  /** Takes one token, waiting as long as the rate requires. */
  public void acquire() {
    if (isUnlimited()) {
      return;
    }
    long wait = reserve();
    if (wait > 0) {
      sleeper.sleepNanos(wait);
    }
  }

  /** How long the caller must wait for the token it reserves now (the bucket may go negative: a queue). */
  private synchronized long reserve() {
    long now = nanoClock.getAsLong();
    tokens = Math.min(burst, tokens + (now - refilledAt) * qps / TimeUnit.SECONDS.toNanos(1));
    refilledAt = now;
    tokens -= 1;
    return tokens >= 0 ? 0 : (long) Math.ceil(-tokens / qps * TimeUnit.SECONDS.toNanos(1));
  }

  @Override
  public String toString() {
    return "RequestRateLimiter[qps=" + qps + ", burst=" + burst + "]";
  }
}
