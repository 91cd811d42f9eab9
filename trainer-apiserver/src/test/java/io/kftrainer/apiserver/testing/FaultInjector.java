package io.kftrainer.apiserver.testing;

import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.apiserver.RequestFilter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults the embedded server injects into a share of its resource requests, to see clients converge despite them: a
 * {@link RequestFilter} (discovery, {@code /version} and OpenAPI are never faulted: clients read them once at
 * start-up), installed with {@link EmbeddedApiServer.Builder#requestFilter}, or by {@code trainer apiserver
 * --inject-faults SPEC} when this test-jar is on the class path ({@link CommandLineProvider}). Each request is
 * faulted with probability {@code rate}; the kind is drawn among those that apply to it:
 *
 * <ul>
 *   <li>{@code 500}: a {@code 500 InternalError} Status; the request does nothing.</li>
 *   <li>{@code 429}: a {@code 429 TooManyRequests} Status with {@code Retry-After} (API priority and fairness
 *   shedding load); the request does nothing.</li>
 *   <li>{@code conflict} (PUT and PATCH only): a {@code 409 Conflict} Status with kube-apiserver's "the object has
 *   been modified" message; the request does nothing.</li>
 *   <li>{@code timeout}: the request takes effect, then after {@code delay} the client gets kube-apiserver's
 *   {@code 504 Timeout} Status instead of the answer: a write the client cannot tell happened.</li>
 *   <li>{@code delay}: the request is served after {@code delay}.</li>
 *   <li>{@code watch-drop}: every open watch stream, once per {@code watch-life}, ends with probability
 *   {@code rate} at a random time within that period, without the client asking, as when a connection to the API
 *   server is lost; clients must resume from their last resourceVersion. Not drawn per request: watches are long
 *   requests, mostly opened before the faults start.</li>
 * </ul>
 *
 * <p>Written as {@code rate=0.1,kinds=500,429,conflict,timeout,delay,watch-drop,delay=1s,watch-life=5s,seed=42}
 * ({@link #parse}): every key is optional; the default is every kind at a rate of 0.1, {@code delay} 1 s,
 * {@code watch-life} 5 s, {@code retry-after} 1 (seconds). It counts what it injected ({@link #injected()}).
 */
public final class FaultInjector implements RequestFilter {

  /**
   * {@code --inject-faults SPEC}: {@link #parse} (listed in this test-jar's
   * {@code META-INF/services/io.kftrainer.apiserver.RequestFilter$Provider}).
   */
  public static final class CommandLineProvider implements RequestFilter.Provider {

    @Override
    public String name() {
      return "faults";
    }

    @Override
    public RequestFilter create(String specification) {
      return parse(specification);
    }
  }

  /** The kinds of fault, by their name in the specification. */
  public enum Kind {
    ERROR_500("500"), TOO_MANY_REQUESTS("429"), CONFLICT("conflict"), TIMEOUT("timeout"), DELAY("delay"),
    WATCH_DROP("watch-drop");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }

    static Kind of(String label) {
      for (Kind kind : values()) {
        if (kind.label.equals(label)) {
          return kind;
        }
      }
      throw new IllegalArgumentException("unknown fault kind '" + label + "' (known: 500, 429, conflict, timeout, "
          + "delay, watch-drop)");
    }
  }

  private final double rate;
  private final Set<Kind> kinds;
  private final Duration delay;
  private final Duration watchLife;
  private final int retryAfterSeconds;
  private final Long seed;
  private final SplittableRandom random;
  private final Map<Kind, AtomicLong> injected = new EnumMap<>(Kind.class);
  private volatile boolean armed = true;

  private FaultInjector(double rate, Set<Kind> kinds, Duration delay, Duration watchLife, int retryAfterSeconds,
      Long seed) {
    if (rate < 0 || rate > 1) {
      throw new IllegalArgumentException("fault rate must be between 0 and 1, was " + rate);
    }
    this.rate = rate;
    this.kinds = kinds.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(kinds);
    this.delay = delay;
    this.watchLife = watchLife;
    this.retryAfterSeconds = retryAfterSeconds;
    this.seed = seed;
    this.random = seed == null ? new SplittableRandom() : new SplittableRandom(seed);
    for (Kind kind : Kind.values()) {
      injected.put(kind, new AtomicLong());
    }
  }

  /**
   * Reads {@code rate=R,kinds=K1,K2,...,delay=D,watch-life=D,retry-after=S,seed=N}; durations as {@code 500ms},
   * {@code 2s}. A value without a key continues the list of kinds.
   *
   * @throws IllegalArgumentException naming the bad key or value
   */
  public static FaultInjector parse(String spec) {
    double rate = 0.1;
    Set<Kind> kinds = EnumSet.noneOf(Kind.class);
    Duration delay = Duration.ofSeconds(1);
    Duration watchLife = Duration.ofSeconds(5);
    int retryAfter = 1;
    Long seed = null;
    String key = null;
    for (String token : spec.split(",")) {
      String item = token.trim();
      if (item.isEmpty()) {
        continue;
      }
      int eq = item.indexOf('=');
      String value = item;
      if (eq >= 0) {
        key = item.substring(0, eq).trim().toLowerCase(Locale.ROOT);
        value = item.substring(eq + 1).trim();
      } else if (!"kinds".equals(key)) {
        throw new IllegalArgumentException("fault specification: '" + item + "' has no key (rate=, kinds=, delay=, "
            + "watch-life=, retry-after=, seed=)");
      }
      try {
        switch (key) {
          case "rate" -> rate = Double.parseDouble(value);
          case "kinds" -> kinds.add(Kind.of(value));
          case "delay" -> delay = duration(value);
          case "watch-life" -> watchLife = duration(value);
          case "retry-after" -> retryAfter = Integer.parseInt(value);
          case "seed" -> seed = Long.parseLong(value);
          default -> throw new IllegalArgumentException("unknown key '" + key + "'");
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("fault specification, " + key + ": " + e.getMessage(), e);
      }
    }
    return new FaultInjector(rate, kinds.isEmpty() ? EnumSet.allOf(Kind.class) : kinds, delay, watchLife,
        retryAfter, seed);
  }

  /** Stops or resumes injecting (on by default), e.g. to install things before the faults start. */
  public FaultInjector armed(boolean on) {
    this.armed = on;
    return this;
  }

  public boolean isArmed() {
    return armed;
  }

  @Override
  public void enable(boolean on) {
    armed(on);
  }

  @Override
  public boolean enabled() {
    return armed;
  }

  /** {@link #injected()} by the kinds' labels. */
  @Override
  public Map<String, Long> counts() {
    Map<String, Long> counts = new java.util.LinkedHashMap<>();
    injected().forEach((kind, count) -> counts.put(kind.label(), count));
    return counts;
  }

  /** How many faults of each kind were injected so far. */
  public Map<Kind, Long> injected() {
    Map<Kind, Long> counts = new EnumMap<>(Kind.class);
    injected.forEach((kind, count) -> counts.put(kind, count.get()));
    return counts;
  }

  public long injectedTotal() {
    return injected.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** The specification this injector was parsed from, normalized. */
  @Override
  public String toString() {
    List<String> labels = new ArrayList<>();
    kinds.forEach(kind -> labels.add(kind.label()));
    return "rate=" + rate + ",kinds=" + String.join(",", labels) + ",delay=" + delay.toMillis() + "ms,watch-life="
        + watchLife.toMillis() + "ms,retry-after=" + retryAfterSeconds + (seed != null ? ",seed=" + seed : "");
  }

  // ---------------------------------------------------------------------------------------------------------------
  // the request path

  @Override
  public Plan plan(Request request) {
    Kind kind = draw(request);
    if (kind == null) {
      return Plan.SERVE;
    }
    return switch (kind) {
      case ERROR_500 -> Plan.refuse(new Failure(500, "InternalError",
          "Internal error occurred: injected fault (the embedded API server's fault injector)", 0));
      case TOO_MANY_REQUESTS -> Plan.refuse(new Failure(429, "TooManyRequests",
          "the server has received too many requests and has asked us to try again later (injected fault)",
          retryAfterSeconds));
      case CONFLICT -> Plan.refuse(new Failure(409, "Conflict", "Operation cannot be fulfilled on "
          + request.resource() + " \"" + request.name() + "\": the object has been modified; please apply your changes "
          + "to the latest version and try again (injected fault)", 0));
      case TIMEOUT -> Plan.replaceAfter(delay, new Failure(504, "Timeout",
          "Timeout: request did not complete within the allotted timeout (injected fault)", 0));
      case DELAY -> Plan.delay(delay);
      case WATCH_DROP -> Plan.SERVE;
    };
  }

  /** The fault for this request, or null; counted as injected. */
  private Kind draw(Request request) {
    if (!armed || kinds.isEmpty() || rate <= 0) {
      return null;
    }
    double roll;
    int pick;
    synchronized (random) {
      roll = random.nextDouble();
      pick = random.nextInt(Integer.MAX_VALUE);
    }
    if (roll >= rate || request.watch()) {
      return null;
    }
    boolean write = request.method().equals("PUT") || request.method().equals("PATCH");
    List<Kind> applicable = new ArrayList<>(kinds.size());
    for (Kind kind : kinds) {
      if (kind != Kind.WATCH_DROP && (kind != Kind.CONFLICT || write)) {
        applicable.add(kind);
      }
    }
    if (applicable.isEmpty()) {
      return null;
    }
    Kind kind = applicable.get(pick % applicable.size());
    injected.get(kind).incrementAndGet();
    return kind;
  }

  /**
   * One watch stream's {@code watch-drop}: while armed, it rolls once per {@code watch-life}; with probability
   * {@code rate} it ends at a random time within that period.
   */
  @Override
  public WatchLimit watchLimit() {
    return new WatchLimit() {
      private long nextRoll = System.nanoTime();
      private long dropAt = Long.MAX_VALUE;

      @Override
      public long end(long deadline) {
        long now = System.nanoTime();
        if (armed && dropAt == Long.MAX_VALUE && kinds.contains(Kind.WATCH_DROP) && now >= nextRoll) {
          nextRoll = now + watchLife.toNanos();
          double roll;
          double at;
          synchronized (random) {
            roll = random.nextDouble();
            at = random.nextDouble();
          }
          if (roll < rate) {
            dropAt = now + (long) (at * watchLife.toNanos());
            injected.get(Kind.WATCH_DROP).incrementAndGet();
          }
        }
        return Math.min(deadline, dropAt);
      }

      @Override
      public long checkNanos() {
        return kinds.contains(Kind.WATCH_DROP) ? Math.max(1, watchLife.toNanos()) : Long.MAX_VALUE;
      }
    };
  }

  /** {@code 250ms}, {@code 2s}, {@code 1m}. */
  private static Duration duration(String value) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m)").matcher(value);
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + value + "' is not a duration such as 500ms, 2s or 1m");
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      default -> Duration.ofMinutes(amount);
    };
  }
}
