package io.kftrainer.statusserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Token buckets per TrainJob, on a hand-moved clock. */
class TrainJobRateLimiterTest {

  private final AtomicLong nanos = new AtomicLong();

  @Test
  void aTrainJobGetsItsBurstThenOneUpdatePerTokenInterval() {
    TrainJobRateLimiter limiter = new TrainJobRateLimiter(5, 10, nanos::get);

    for (int i = 0; i < 10; i++) {
      assertThat(limiter.acquire("ns/a")).isZero();
    }
    assertThat(limiter.acquire("ns/a")).isEqualTo(Duration.ofMillis(200));
    nanos.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(limiter.acquire("ns/a")).isEqualTo(Duration.ofMillis(100));
    nanos.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(limiter.acquire("ns/a")).isZero();
  }

  @Test
  void trainJobsDoNotShareABucket() {
    TrainJobRateLimiter limiter = new TrainJobRateLimiter(1, 1, nanos::get);

    assertThat(limiter.acquire("ns/a")).isZero();
    assertThat(limiter.acquire("ns/a")).isEqualTo(Duration.ofSeconds(1));
    assertThat(limiter.acquire("ns/b")).isZero();
    assertThat(limiter.acquire("other/a")).isZero();
  }

  @Test
  void refilledBucketsAreForgottenBeyondTheBound() {
    TrainJobRateLimiter limiter = new TrainJobRateLimiter(1, 1, nanos::get);
    for (int i = 0; i <= TrainJobRateLimiter.MAX_BUCKETS; i++) {
      limiter.acquire("ns/job-" + i);
    }
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());

    limiter.acquire("ns/new");

    assertThat(limiter.tracked()).isEqualTo(1);
  }

  @Test
  void rejectsALimitThatAdmitsNothing() {
    assertThatThrownBy(() -> new TrainJobRateLimiter(0, 10)).hasMessageContaining("qps must be positive");
    assertThatThrownBy(() -> new TrainJobRateLimiter(5, 0)).hasMessageContaining("burst must be at least 1");
  }
}
