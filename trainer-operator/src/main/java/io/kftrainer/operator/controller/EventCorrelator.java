package io.kftrainer.operator.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decides whether an Event is created, aggregated into the Event already recorded, or dropped, as client-go's
 * {@code EventCorrelator} does ({@code k8s.io/client-go/tools/record/events_cache.go}):
 *
 * <ul>
 *   <li><b>Aggregation</b>: an Event equal to one recorded within {@link #WINDOW} (same involved object, type,
 *       reason and message) is not created again: the existing Event's {@code count} and {@code lastTimestamp}
 *       are patched. A TrainJob whose reconcile fails on every retry has one Event with a growing count, not one
 *       per retry.</li>
 *   <li><b>Spam filter</b>: each involved object has a token bucket of {@link #SPAM_BURST} Events, refilled by one
 *       every {@link #SPAM_REFILL}; beyond it Events (creates and patches) are dropped, so that Events never take
 *       the API budget ({@code --kube-api-qps}) of the writes that matter: the TrainJob's objects and status.</li>
 * </ul>
 *
 * <p>State is kept for the {@link #CACHE_SIZE} most recently seen keys and objects (client-go's LRU size); a key
 * that fell out is created anew. Thread-safe.
 */
final class EventCorrelator {

  static final Duration WINDOW = Duration.ofMinutes(10);
  static final int SPAM_BURST = 25;
  static final Duration SPAM_REFILL = Duration.ofMinutes(5);
  static final int CACHE_SIZE = 4096;

  /** What to write: nothing, a new Event, or a patch of Event {@code name} to {@code count}. */
  record Decision(Action action, String name, int count) {

    static final Decision CREATE = new Decision(Action.CREATE, null, 1);
    static final Decision DROP = new Decision(Action.DROP, null, 0);
  }

  enum Action { CREATE, PATCH, DROP }

  private final Map<String, Recorded> recorded = lru();
  private final Map<String, Bucket> buckets = lru();

  /**
   * @param object the involved object (its uid)
   * @param key the Event's aggregation key (object, type, reason, message)
   */
  synchronized Decision observe(String object, String key, Instant now) {
    if (!buckets.computeIfAbsent(object, o -> new Bucket(now)).take(now)) {
      return Decision.DROP;
    }
    Recorded event = recorded.get(key);
    if (event == null || Duration.between(event.last, now).compareTo(WINDOW) > 0) {
      return Decision.CREATE;
    }
    event.count++;
    event.last = now;
    return new Decision(Action.PATCH, event.name, event.count);
  }

  /** Event {@code name} was created for {@code key}: later equal Events patch it. */
  synchronized void created(String key, String name, Instant now) {
    recorded.put(key, new Recorded(name, now));
  }

  /** The Event of {@code key} is gone (its patch failed): the next one is created. */
  synchronized void forget(String key) {
    recorded.remove(key);
  }

  private static <V> Map<String, V> lru() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > CACHE_SIZE;
      }
    };
  }

  private static final class Recorded {

    private final String name;
    private int count = 1;
    private Instant last;

    Recorded(String name, Instant last) {
      this.name = name;
      this.last = last;
    }
  }

  private static final class Bucket {

    private double tokens = SPAM_BURST;
    private Instant refilled;

    Bucket(Instant now) {
      this.refilled = now;
    }

    boolean take(Instant now) {
      double elapsed = Duration.between(refilled, now).toNanos() / (double) SPAM_REFILL.toNanos();
      if (elapsed > 0) {
        tokens = Math.min(SPAM_BURST, tokens + elapsed);
        refilled = now;
      }
      if (tokens < 1) {
        return false;
      }
      tokens -= 1;
      return true;
    }
  }
}
