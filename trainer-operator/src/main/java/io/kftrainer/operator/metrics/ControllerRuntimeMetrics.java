package io.kftrainer.operator.metrics;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.BaseControl;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.kftrainer.operator.controller.ControllerNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;
import java.util.stream.DoubleStream;

/**
 * JOSDK's metrics callbacks recorded under controller-runtime's names, labels and types, so that the dashboards
 * and alerts written for upstream's manager work on this operator; every callback is passed on to {@code delegate}
 * (JOSDK's own Micrometer metrics) as well. Per controller, labelled {@code controller} with upstream's controller
 * name, the lower-cased kind it reconciles and {@code _controller} ({@code trainjob_controller}, the name upstream's
 * {@code Named(...)} gives it); every series controller-runtime v0.24 initialises when a controller starts exists
 * from registration on:
 *
 * <ul>
 *   <li>{@code controller_runtime_reconcile_total{controller,result}}: counter, {@code result} one of
 *       {@code success}, {@code error}, {@code requeue_after} (the reconcile asked to be called again after a
 *       delay) and {@code requeue} (never: a JOSDK reconcile cannot ask for an immediate requeue);</li>
 *   <li>{@code controller_runtime_reconcile_errors_total}, {@code controller_runtime_terminal_reconcile_errors_total}
 *       (never: every failure is retried), {@code controller_runtime_reconcile_panics_total} (a {@link Error} thrown
 *       by the reconcile, Java's nearest to a recovered panic), {@code controller_runtime_reconcile_timeouts_total}
 *       (never: no reconcile timeout), each {@code {controller}}: counters;</li>
 *   <li>{@code controller_runtime_reconcile_time_seconds{controller}}: histogram, controller-runtime's buckets;</li>
 *   <li>{@code controller_runtime_active_workers{controller}}, {@code controller_runtime_max_concurrent_reconciles
 *       {controller}}: gauges;</li>
 *   <li>client-go's work queue, {@code name} being the controller's name too: {@code workqueue_depth{name,controller,
 *       priority}} (gauge, {@code priority} always {@code 0}: JOSDK has no priorities),
 *       {@code workqueue_adds_total{name,controller}} and {@code workqueue_retries_total{name,controller}} (counters; a
 *       retry is a reconcile scheduled after a delay: a failure's back-off or a {@code requeue_after}),
 *       {@code workqueue_queue_duration_seconds{name,controller}} (queued to reconcile start) and
 *       {@code workqueue_work_duration_seconds{name,controller}} (reconcile start to end), histograms with client-go's
 *       buckets (10 ns to 1000 s), {@code workqueue_unfinished_work_seconds{name,controller}} and
 *       {@code workqueue_longest_running_processor_seconds{name,controller}} (gauges of the reconciles running now,
 *       computed when scraped).</li>
 * </ul>
 *
 * <p>Beside them, the same reconciles as upstream PR #3433 times them:
 * {@code kubeflow_trainer_reconcile_duration_seconds{controller,result}}, {@code result} {@code success} or
 * {@code error}, Prometheus' default buckets.
 *
 * <p>JOSDK has no work queue object; its event processor keeps one pending mark per resource, which is what
 * client-go's queue keeps too (an item added twice before it is taken counts once). So: an event for a resource
 * with no pending mark is an add (depth + 1, the time noted); the start of its reconcile takes it off the queue
 * (depth - 1, the wait observed); an event during the reconcile marks it again, as client-go re-queues an item
 * added while processed; a resource whose deletion JOSDK has cleaned up leaves the queue unobserved. The marks are
 * bounded by the resources the controller watches.
 */
public final class ControllerRuntimeMetrics implements Metrics {

  /** controller-runtime's reconcile-time buckets, in seconds. */
  static final double[] RECONCILE_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45,
      0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30,
      40, 50, 60};
  /** client-go's work-queue latency buckets: 10 ns times 10^0..11. */
  static final double[] QUEUE_BUCKETS = DoubleStream.iterate(10e-9, bucket -> bucket * 10).limit(12).toArray();

  static final String RESULT_SUCCESS = "success";
  static final String RESULT_ERROR = "error";
  static final String RESULT_REQUEUE_AFTER = "requeue_after";
  static final String RESULT_REQUEUE = "requeue";
  /** The {@code priority} of client-go's priority queue that controller-runtime gives every ordinary event. */
  static final String PRIORITY = "0";

  private final MeterRegistry registry;
  private final Metrics delegate;
  private final ToIntFunction<String> maxConcurrentReconciles;
  private final LongSupplier nanoClock;
  private final Consumer<Event> events;
  private final Map<String, ControllerMeters> controllers = new ConcurrentHashMap<>();

  /**
   * @param maxConcurrentReconciles per controller name, the reconciles that may run at once
   * @param events told of every event the controllers receive (the metrics of TrainJobs' lives)
   */
  public ControllerRuntimeMetrics(MeterRegistry registry, Metrics delegate,
      ToIntFunction<String> maxConcurrentReconciles, Consumer<Event> events) {
    this(registry, delegate, maxConcurrentReconciles, System::nanoTime, events);
  }

  ControllerRuntimeMetrics(MeterRegistry registry, Metrics delegate, ToIntFunction<String> maxConcurrentReconciles,
      LongSupplier nanoClock) {
    this(registry, delegate, maxConcurrentReconciles, nanoClock, event -> { });
  }

  private ControllerRuntimeMetrics(MeterRegistry registry, Metrics delegate,
      ToIntFunction<String> maxConcurrentReconciles, LongSupplier nanoClock, Consumer<Event> events) {
    this.events = Objects.requireNonNull(events, "events");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.maxConcurrentReconciles = Objects.requireNonNull(maxConcurrentReconciles, "maxConcurrentReconciles");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
  }

  /** The meters of one controller. */
  private final class ControllerMeters {
    final Counter success;
    final Counter error;
    final Counter requeueAfter;
    final Counter errors;
    final Counter panics;
    final Timer reconcileTime;
    final Timer trainerSuccess;
    final Timer trainerError;
    final AtomicInteger activeWorkers = new AtomicInteger();
    final Counter adds;
    final Counter retries;
    final Timer queueDuration;
    final Timer workDuration;
    /** Resource to the time it was added to the queue, while it waits. */
    final Map<ResourceID, Long> queued = new ConcurrentHashMap<>();
    /** Resource to the time its reconcile started, while it runs. */
    final Map<ResourceID, Long> processing = new ConcurrentHashMap<>();

    ControllerMeters(String controller) {
      success = result(controller, RESULT_SUCCESS);
      error = result(controller, RESULT_ERROR);
      requeueAfter = result(controller, RESULT_REQUEUE_AFTER);
      result(controller, RESULT_REQUEUE);
      errors = counter("controller.runtime.reconcile.errors", "Total number of reconciliation errors per controller",
          controller);
      counter("controller.runtime.terminal.reconcile.errors",
          "Total number of terminal reconciliation errors per controller", controller);
      panics = counter("controller.runtime.reconcile.panics", "Total number of reconciliation panics per controller",
          controller);
      counter("controller.runtime.reconcile.timeouts", "Total number of reconciliation timeouts per controller",
          controller);
      reconcileTime = Timer.builder("controller.runtime.reconcile.time")
          .description("Length of time per reconciliation per controller")
          .serviceLevelObjectives(Buckets.durations(RECONCILE_BUCKETS))
          .tag("controller", controller).register(registry);
      trainerSuccess = trainerReconcile(controller, RESULT_SUCCESS);
      trainerError = trainerReconcile(controller, RESULT_ERROR);
      Gauge.builder("controller.runtime.active.workers", activeWorkers, AtomicInteger::get)
          .description("Number of currently used workers per controller")
          .tag("controller", controller).register(registry);
      int max = maxConcurrentReconciles.applyAsInt(controller);
      Gauge.builder("controller.runtime.max.concurrent.reconciles", () -> max)
          .description("Maximum number of concurrent reconciles per controller")
          .tag("controller", controller).register(registry);
      Gauge.builder("workqueue.depth", queued, Map::size)
          .description("Current depth of workqueue by workqueue and priority")
          .tag("name", controller).tag("controller", controller).tag("priority", PRIORITY).register(registry);
      adds = Counter.builder("workqueue.adds")
          .description("Total number of adds handled by workqueue")
          .tag("name", controller).tag("controller", controller).register(registry);
      retries = Counter.builder("workqueue.retries")
          .description("Total number of items added to the workqueue with a non-zero delay (rate-limited requeues, "
              + "explicit RequeueAfter or AddAfter calls)")
          .tag("name", controller).tag("controller", controller).register(registry);
      queueDuration = queueTimer("workqueue.queue.duration",
          "How long in seconds an item stays in workqueue before being requested", controller);
      workDuration = queueTimer("workqueue.work.duration",
          "How long in seconds processing an item from workqueue takes.", controller);
      Gauge.builder("workqueue.unfinished.work", processing, running -> secondsRunning(running, false))
          .description("How many seconds of work has been done that is in progress and hasn't been observed by "
              + "work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by "
              + "observing the rate at which this increases.")
          .baseUnit("seconds")
          .tag("name", controller).tag("controller", controller).register(registry);
      Gauge.builder("workqueue.longest.running.processor", processing, running -> secondsRunning(running, true))
          .description("How many seconds has the longest running processor for workqueue been running.")
          .baseUnit("seconds")
          .tag("name", controller).tag("controller", controller).register(registry);
    }

    private Counter result(String controller, String result) {
      return Counter.builder("controller.runtime.reconcile")
          .description("Total number of reconciliations per controller")
          .tag("controller", controller).tag("result", result).register(registry);
    }

    private Timer trainerReconcile(String controller, String result) {
      return Timer.builder("kubeflow.trainer.reconcile.duration")
          .description("Latency of reconcile iterations per controller.")
          .serviceLevelObjectives(Buckets.durations(PluginCallMetrics.DEFAULT_BUCKETS))
          .tag("controller", controller).tag("result", result).register(registry);
    }

    private Counter counter(String name, String description, String controller) {
      return Counter.builder(name).description(description).tag("controller", controller).register(registry);
    }

    private Timer queueTimer(String name, String description, String controller) {
      return Timer.builder(name).description(description)
          .serviceLevelObjectives(Buckets.durations(QUEUE_BUCKETS))
          .tag("name", controller).tag("controller", controller).register(registry);
    }

    /** The seconds the reconciles running now have run: their sum, or the longest. */
    private double secondsRunning(Map<ResourceID, Long> running, boolean longest) {
      long now = nanoClock.getAsLong();
      double total = 0;
      double oldest = 0;
      for (long started : running.values()) {
        double seconds = (now - started) / 1e9;
        total += seconds;
        oldest = Math.max(oldest, seconds);
      }
      return longest ? oldest : total;
    }
  }

  @Override
  public void controllerRegistered(Controller<? extends HasMetadata> controller) {
    meters(GroupVersionKind.gvkFor(controller.getConfiguration().getResourceClass()).getKind());
    delegate.controllerRegistered(controller);
  }

  @Override
  public void receivedEvent(Event event, Map<String, Object> metadata) {
    ControllerMeters meters = meters(metadata);
    if (meters != null && meters.queued.putIfAbsent(event.getRelatedCustomResourceID(), nanoClock.getAsLong())
        == null) {
      meters.adds.increment();
    }
    events.accept(event);
    delegate.receivedEvent(event, metadata);
  }

  @Override
  public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
    ControllerMeters meters = meters(metadata);
    if (meters != null) {
      ResourceID id = ResourceID.fromResource(resource);
      long now = nanoClock.getAsLong();
      Long added = meters.queued.remove(id);
      if (added != null) {
        meters.queueDuration.record(now - added, TimeUnit.NANOSECONDS);
      }
      meters.processing.put(id, now);
      meters.activeWorkers.incrementAndGet();
    }
    delegate.reconciliationExecutionStarted(resource, metadata);
  }

  @Override
  public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
    ControllerMeters meters = meters(metadata);
    if (meters != null) {
      Long started = meters.processing.remove(ResourceID.fromResource(resource));
      if (started != null) {
        meters.workDuration.record(nanoClock.getAsLong() - started, TimeUnit.NANOSECONDS);
      }
      meters.activeWorkers.decrementAndGet();
    }
    delegate.reconciliationExecutionFinished(resource, metadata);
  }

  @Override
  public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
    ControllerMeters meters = meters(metadata);
    if (meters != null) {
      meters.queued.remove(resourceID);
      meters.processing.remove(resourceID);
    }
    delegate.cleanupDoneFor(resourceID, metadata);
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    ControllerMeters meters = meters(execution.metadata());
    if (meters == null) {
      return delegate.timeControllerExecution(execution);
    }
    long start = nanoClock.getAsLong();
    boolean failed = true;
    try {
      T result = delegate.timeControllerExecution(execution);
      failed = false;
      boolean requeued = result instanceof BaseControl<?> control && control.getScheduleDelay().isPresent();
      if (requeued) {
        meters.requeueAfter.increment();
        meters.retries.increment();
      } else {
        meters.success.increment();
      }
      return result;
    } catch (Exception e) {
      meters.error.increment();
      meters.errors.increment();
      throw e;
    } catch (Error e) {
      meters.panics.increment();
      meters.error.increment();
      meters.errors.increment();
      throw e;
    } finally {
      long took = nanoClock.getAsLong() - start;
      meters.reconcileTime.record(took, TimeUnit.NANOSECONDS);
      (failed ? meters.trainerError : meters.trainerSuccess).record(took, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
    delegate.reconcileCustomResource(resource, retryInfo, metadata);
  }

  @Override
  public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
    // JOSDK calls this as it schedules the retry of a failed reconcile after its back-off
    ControllerMeters meters = meters(metadata);
    if (meters != null) {
      meters.retries.increment();
    }
    delegate.failedReconciliation(resource, exception, metadata);
  }

  @Override
  public void finishedReconciliation(HasMetadata resource, Map<String, Object> metadata) {
    delegate.finishedReconciliation(resource, metadata);
  }

  @Override
  public <T extends Map<?, ?>> T monitorSizeOf(T map, String name) {
    return delegate.monitorSizeOf(map, name);
  }

  /** The meters of the controller {@code metadata} names (JOSDK passes the reconciled GVK), null if none. */
  private ControllerMeters meters(Map<String, Object> metadata) {
    return metadata != null && metadata.get(Constants.RESOURCE_GVK_KEY) instanceof GroupVersionKind gvk
        ? meters(gvk.getKind()) : null;
  }

  private ControllerMeters meters(String kind) {
    return controllers.computeIfAbsent(ControllerNames.of(kind), ControllerMeters::new);
  }
}
