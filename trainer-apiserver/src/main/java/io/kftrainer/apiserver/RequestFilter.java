package io.kftrainer.apiserver;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A filter in front of the resource requests of {@link EmbeddedApiServer}, where kube-apiserver's handler chain has
 * its filters (priority and fairness, request timeouts): for each request it may answer a failure instead of serving
 * it, delay it, or replace the answer of a request that took effect, and it may end watch streams early. Discovery,
 * {@code /version}, OpenAPI and {@code /debug/stats} never pass it: clients read them once at start-up.
 *
 * <p>The server has none unless one is given ({@link EmbeddedApiServer.Builder#requestFilter}). The one there is,
 * is a test fixture: the fault injector of trainer-apiserver's test-jar
 * ({@code io.kftrainer.apiserver.testing.FaultInjector}), with which chaos tests see clients converge despite a
 * failing API server, in process or, through {@link Provider}, in a {@code trainer apiserver --inject-faults}
 * process that has the test-jar on its class path.
 */
public interface RequestFilter {

  /** Serves every request as it is. */
  RequestFilter NONE = request -> Plan.SERVE;

  /** How to handle one resource request; asked once per request, before it is served, on the request's thread. */
  Plan plan(Request request);

  /** The limit of a watch stream that opens now. */
  default WatchLimit watchLimit() {
    return WatchLimit.NONE;
  }

  /** Turns the filter on or off at run time ({@code POST /debug/stats?faults=on|off}); off, it serves everything. */
  default void enable(boolean on) {
  }

  default boolean enabled() {
    return true;
  }

  /** What the filter did so far, by kind, for {@code GET /debug/stats}. */
  default Map<String, Long> counts() {
    return Map.of();
  }

  /** A resource request: its verb, and what its path names (null for what it does not name). */
  record Request(String method, String group, String version, String namespace, String resource, String name,
      String subresource, boolean watch) {
  }

  /**
   * What to do with a request: answer {@code refusal} without serving it; or wait {@code delayBefore}, serve it and,
   * when there is a {@code replacement}, wait {@code delayAfter} and answer the replacement instead of the server's
   * answer (the request took effect, the client cannot tell). Streamed answers (watches, logs) are never replaced.
   */
  record Plan(Failure refusal, Duration delayBefore, Failure replacement, Duration delayAfter) {

    public static final Plan SERVE = new Plan(null, Duration.ZERO, null, Duration.ZERO);

    public Plan {
      Objects.requireNonNull(delayBefore, "delayBefore");
      Objects.requireNonNull(delayAfter, "delayAfter");
    }

    public static Plan refuse(Failure refusal) {
      return new Plan(Objects.requireNonNull(refusal, "refusal"), Duration.ZERO, null, Duration.ZERO);
    }

    public static Plan delay(Duration delay) {
      return new Plan(null, delay, null, Duration.ZERO);
    }

    public static Plan replaceAfter(Duration delay, Failure replacement) {
      return new Plan(null, Duration.ZERO, Objects.requireNonNull(replacement, "replacement"), delay);
    }
  }

  /** A failure {@code Status} as kube-apiserver writes it, with a {@code Retry-After} header when above 0. */
  record Failure(int code, String reason, String message, int retryAfterSeconds) {
  }

  /** When a watch stream ends: at the deadline its client asked for, or earlier. */
  interface WatchLimit {

    WatchLimit NONE = deadline -> deadline;

    /**
     * The stream's end ({@link System#nanoTime()}), given the client's deadline; asked again after
     * {@link #checkNanos}.
     */
    long end(long deadlineNanos);

    /** How long the stream may wait for events before {@link #end} is asked again. */
    default long checkNanos() {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Makes a filter from a specification given on a command line; found with {@link java.util.ServiceLoader} by
   * {@link #name()} (the test-jar's fault injector is {@code faults}, for {@code --inject-faults}).
   */
  interface Provider {

    String name();

    /** @throws IllegalArgumentException naming what is wrong with the specification */
    RequestFilter create(String specification);
  }
}
