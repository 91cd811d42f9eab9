package io.kftrainer.executor;

import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Notes every {@link #PERIOD_MILLIS} ms how long the logs of running containers are ({@link ContainerLog#sample}):
 * the times of {@code kubectl logs --timestamps} and {@code --since}. One thread for every container; a log that
 * did not grow costs one {@code stat}.
 */
final class LogClock implements AutoCloseable {

  static final long PERIOD_MILLIS = 100;

  private final Clock clock;
  private final Set<ContainerLog> logs = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "log-clock");
    thread.setDaemon(true);
    return thread;
  });

  LogClock(Clock clock) {
    this.clock = clock;
    timer.scheduleWithFixedDelay(this::tick, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** A container instance starts writing {@code log}. */
  void watch(ContainerLog log) {
    log.sample(clock.instant());
    logs.add(log);
  }

  /** Its processes are gone: the last sample, then no more. */
  void forget(ContainerLog log) {
    logs.remove(log);
    log.sample(clock.instant());
  }

  private void tick() {
    logs.forEach(log -> log.sample(clock.instant()));
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
