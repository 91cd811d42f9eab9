package io.kftrainer.statusserver;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per TrainJob (the KEP's rate limit per reporting identity): {@code qps} updates per second on
 * average, {@code burst} at once. An update over the budget is refused with the time until the next token, which
 * the server sends as {@code Retry-After}: a chatty or many-node TrainJob slows itself down, and the API server and
 * the other TrainJobs do not notice.
 *
 * <p>Bounded: a bucket that has refilled is the same as a new one, so when more than {@value #MAX_BUCKETS}
 * TrainJobs are tracked the full buckets are dropped.
 */
final class TrainJobRateLimiter {

  static final int MAX_BUCKETS = 10_000;

  private final double qps;
  private final int burst;
  private final LongSupplier nanoTime;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  private static final class Bucket {
    private double tokens;
    private long updated;

    Bucket(double tokens, long updated) {
      this.tokens = tokens;
      this.updated = updated;
    }
  }

  TrainJobRateLimiter(double qps, int burst) {
    this(qps, burst, System::nanoTime);
  }

  TrainJobRateLimiter(double qps, int burst, LongSupplier nanoTime) {
    if (!(qps > 0)) {
      throw new IllegalArgumentException("the status server's qps must be positive, was " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("the status server's burst must be at least 1, was " + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.nanoTime = nanoTime;
  }

  /** Takes a token of {@code trainJob}'s bucket: zero if there was one, else how long until there is. */
  Duration acquire(String trainJob) {
    long now = nanoTime.getAsLong();
    if (buckets.size() > MAX_BUCKETS) {
      buckets.values().removeIf(bucket -> {
        synchronized (bucket) {
          return refill(bucket, now) >= burst;
        }
      });
    }
    Bucket bucket = buckets.computeIfAbsent(trainJob, key -> new Bucket(burst, now));
    synchronized (bucket) {
      double tokens = refill(bucket, now);
      if (tokens >= 1) {
        bucket.tokens = tokens - 1;
        return Duration.ZERO;
      }
      bucket.tokens = tokens;
      return Duration.ofNanos((long) Math.ceil((1 - tokens) / qps * 1e9));
    }
  }

  int tracked() {
    return buckets.size();
  }

  private double refill(Bucket bucket, long now) {
    double tokens = Math.min(burst, bucket.tokens + (now - bucket.updated) / 1e9 * qps);
    bucket.updated = now;
    bucket.tokens = tokens;
    return tokens;
  }
}
