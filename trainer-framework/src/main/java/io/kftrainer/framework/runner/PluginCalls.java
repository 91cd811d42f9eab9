package io.kftrainer.framework.runner;

import io.kftrainer.framework.spi.Plugin;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How the runner calls plugins: every failure of a call (an exception, a linkage error of a jar built against
 * other versions, a stack overflow) becomes a {@link PluginException} naming the plugin and the phase; with a
 * timeout, a call that does not return within it is abandoned the same way.
 *
 * <p>With a timeout, a phase runs on a {@code plugin-call} thread while the caller (a reconcile thread, a webhook
 * thread) waits; one thread hand-off per phase, not per call. The timeout applies to each plugin call, not to the
 * phase. An abandoned call is interrupted; a plugin that ignores interruption keeps its thread until it returns,
 * which Java cannot prevent. So the threads are bounded: while {@value #STUCK_CALLS_PER_PLUGIN} abandoned calls of a
 * plugin have not returned, the next calls of that plugin are refused at once (a {@link PluginException}), and
 * start again once one returns. At most {@value #STUCK_CALLS_PER_PLUGIN} threads per plugin are ever stuck, and
 * the callers' threads never are.
 */
public final class PluginCalls {

  /** Abandoned calls of one plugin still running, beyond which its calls are refused. */
  public static final int STUCK_CALLS_PER_PLUGIN = 4;

  private static final PluginCalls DIRECT = new PluginCalls(null, PluginCallObserver.NONE);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Duration timeout;
  private final PluginCallObserver observer;
  private final ThreadPoolExecutor executor;
  private final Map<String, AtomicInteger> stuck = new ConcurrentHashMap<>();

  private PluginCalls(Duration timeout, PluginCallObserver observer) {
    this.timeout = timeout;
    this.observer = observer;
    // no queue: a phase gets a thread at once; idle threads end after a minute
    this.executor = timeout == null ? null : new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
        new SynchronousQueue<>(), task -> {
          Thread thread = new Thread(task, "plugin-call-" + THREADS.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Calls on the caller's thread, without a timeout (tests, tools). */
  public static PluginCalls direct() {
    return DIRECT;
  }

  /** Abandons a plugin call after {@code timeout}. */
  public static PluginCalls withTimeout(Duration timeout) {
    return withTimeout(timeout, PluginCallObserver.NONE);
  }

  /** As {@link #withTimeout(Duration)}, telling {@code observer} of every call. */
  public static PluginCalls withTimeout(Duration timeout, PluginCallObserver observer) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("a plugin call timeout must be positive, was " + timeout);
    }
    return new PluginCalls(timeout, Objects.requireNonNull(observer, "observer"));
  }

  /** How many abandoned calls of the plugin {@code name} have not returned yet. */
  public int stuckCalls(String name) {
    AtomicInteger count = stuck.get(name);
    return count == null ? 0 : count.get();
  }

  /** Runs a phase, whose plugin calls go through the {@link Session} it is given. */
  <R> R run(Function<Session, R> phase) {
    Session session = new Session();
    if (executor == null) {
      return phase.apply(session);
    }
    Future<R> result = executor.submit(() -> phase.apply(session));
    long timeoutNanos = timeout.toNanos();
    while (true) {
      Call call = session.current;
      long waitNanos = call == null ? timeoutNanos : call.startNanos + timeoutNanos - System.nanoTime();
      try {
        return result.get(Math.max(waitNanos, 0), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        Call now = session.current;
        if (now != null && now == call && System.nanoTime() - now.startNanos >= timeoutNanos) {
          session.abandoned = true;
          AtomicInteger stuckCalls = stuck.computeIfAbsent(now.plugin, name -> new AtomicInteger());
          stuckCalls.incrementAndGet();
          if (!now.abandon()) {
            stuckCalls.decrementAndGet();
          }
          result.cancel(true);
          throw new PluginException(now.plugin, now.phase,
              new TimeoutException("did not return within " + timeout.toMillis() + " ms"));
        }
      } catch (ExecutionException e) {
        throw rethrow(e.getCause());
      } catch (InterruptedException e) {
        session.abandoned = true;
        result.cancel(true);
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted while plugins ran");
      }
    }
  }

  private static RuntimeException rethrow(Throwable cause) {
    if (cause instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    throw new IllegalStateException(cause);
  }

  /** One run of a phase: which plugin call is in progress. */
  final class Session {

    private volatile Call current;
    private volatile boolean abandoned;

    void call(Plugin plugin, String phase, Runnable body) {
      call(plugin, phase, () -> {
        body.run();
        return null;
      });
    }

    <T> T call(Plugin plugin, String phase, Supplier<T> body) {
      if (abandoned) {
        throw new CancellationException("the phase was abandoned");
      }
      int stuckCalls = stuckCalls(plugin.name());
      if (stuckCalls >= STUCK_CALLS_PER_PLUGIN) {
        throw new PluginException(plugin.name(), phase, new IllegalStateException(stuckCalls
            + " earlier calls have not returned after the timeout; its calls are refused until they do"));
      }
      Call call = new Call(plugin.name(), phase, System.nanoTime());
      current = call;
      boolean failed = true;
      try {
        T returned = body.get();
        failed = false;
        return returned;
      } catch (RuntimeException | LinkageError | StackOverflowError | AssertionError e) {
        throw e instanceof PluginException p ? p : new PluginException(plugin.name(), phase, e);
      } finally {
        observer.called(call.plugin, phase, System.nanoTime() - call.startNanos, failed);
        current = null;
        if (!call.finish()) {
          stuck.computeIfAbsent(call.plugin, name -> new AtomicInteger()).decrementAndGet();
        }
      }
    }
  }

  /** A plugin call in progress; ends either returned or abandoned, whichever comes first. */
  private static final class Call {

    final String plugin;
    final String phase;
    final long startNanos;
    private final AtomicBoolean ended = new AtomicBoolean();

    Call(String plugin, String phase, long startNanos) {
      this.plugin = plugin;
      this.phase = phase;
      this.startNanos = startNanos;
    }

    /** Whether the call had not returned yet: it is now abandoned. */
    boolean abandon() {
      return ended.compareAndSet(false, true);
    }

    /** Whether the call returned before it was abandoned. */
    boolean finish() {
      return ended.compareAndSet(false, true);
    }
  }
}
