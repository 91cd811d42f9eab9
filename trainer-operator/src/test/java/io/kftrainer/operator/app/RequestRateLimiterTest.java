package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The token bucket, on a fake clock whose sleeps advance it. */
class RequestRateLimiterTest {

  private long now;
  private final List<Long> sleeps = new ArrayList<>();

  private RequestRateLimiter limiter(double qps, int burst) {
    return new RequestRateLimiter(qps, burst, () -> now, nanos -> {
      sleeps.add(TimeUnit.NANOSECONDS.toMillis(nanos));
      now += nanos;
    });
  }

  @Test
  void aBurstGoesThroughAtOnceThenRequestsAreSpacedByTheRate() {
    RequestRateLimiter limiter = limiter(10, 3);

    for (int i = 0; i < 6; i++) {
      limiter.acquire();
    }

    assertThat(sleeps).containsExactly(100L, 100L, 100L);
  }

  @Test
  void idleTimeRefillsTheBucketUpToTheBurst() {
    RequestRateLimiter limiter = limiter(10, 2);
    limiter.acquire();
    limiter.acquire();

    now += TimeUnit.SECONDS.toNanos(60);
    limiter.acquire();
    limiter.acquire();
    limiter.acquire();

    assertThat(sleeps).containsExactly(100L);
  }

  @Test
  void aRateOfZeroIsUnlimited() {
    RequestRateLimiter limiter = limiter(0, 1);

    for (int i = 0; i < 1000; i++) {
      limiter.acquire();
    }

    assertThat(limiter.isUnlimited()).isTrue();
    assertThat(sleeps).isEmpty();
  }
}
