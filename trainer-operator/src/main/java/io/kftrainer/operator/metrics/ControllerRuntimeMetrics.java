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
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;
import java.util.stream.DoubleStream;

/**
 * JOSDK's metrics callbacks recorded under controller-runtime's names, labels and types, so that the dashboards
 * and alerts written for upstream's manager work on this operator; every callback is passed on to {@code delegate}
 * (JOSDK's own Micrometer metrics) as well. Per controller, labelled {@code controller} with the lower-cased kind
 * it reconciles ({@code trainjob}, as controller-runtime names controllers):
 *
 * <ul>
 *   <li>{@code controller_runtime_reconcile_total{controller,result}}: counter, {@code result} one of
 *       {@code success}, {@code error}, {@code requeue_after} (the reconcile asked to be called again after a
 *       delay);</li>
 *   <li>{@code controller_runtime_reconcile_errors_total{controller}}: counter;</li>
 *   <li>{@code controller_runtime_reconcile_time_seconds{controller}}: histogram, controller-runtime's buckets;</li>
 *   <li>{@code controller_runtime_active_workers{controller}}, {@code controller_runtime_max_concurrent_reconciles
 *       {controller}}: gauges;</li>
 *   <li>{@code workqueue_depth{name,controller}}: gauge, {@code workqueue_adds_total{name,controller}}: counter,
 *       {@code workqueue_queue_duration_seconds{name,controller}}: histogram (controller-runtime's buckets, 10 ns to
 *       1000 s), {@code name} being the controller's name too.</li>
 * </ul>
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

  private final MeterRegistry registry;
  private final Metrics delegate;
  private final ToIntFunction<String> maxConcurrentReconciles;
  private final LongSupplier nanoClock;
  private final Map<String, ControllerMeters> controllers = new ConcurrentHashMap<>();

  /**
   * @param maxConcurrentReconciles per controller name, the reconciles that may run at once
   */
  public ControllerRuntimeMetrics(MeterRegistry registry, Metrics delegate,
      ToIntFunction<String> maxConcurrentReconciles) {
    this(registry, delegate, maxConcurrentReconciles, System::nanoTime);
  }

  ControllerRuntimeMetrics(MeterRegistry registry, Metrics delegate, ToIntFunction<String> maxConcurrentReconciles,
      LongSupplier nanoClock) {
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
    final Timer reconcileTime;
    final AtomicInteger activeWorkers = new AtomicInteger();
    final Counter adds;
    final Timer queueDuration;
    /** Resource to the time it was added to the queue, while it waits. */
    final Map<ResourceID, Long> queued = new ConcurrentHashMap<>();

    ControllerMeters(String controller) {
      success = result(controller, RESULT_SUCCESS);
      error = result(controller, RESULT_ERROR);
      requeueAfter = result(controller, RESULT_REQUEUE_AFTER);
      errors = Counter.builder("controller.runtime.reconcile.errors")
          .description("Total number of reconciliation errors per controller")
          .tag("controller", controller).register(registry);
      reconcileTime = Timer.builder("controller.runtime.reconcile.time")
          .description("Length of time per reconciliation per controller")
          .serviceLevelObjectives(durations(RECONCILE_BUCKETS))
          .tag("controller", controller).register(registry);
      Gauge.builder("controller.runtime.active.workers", activeWorkers, AtomicInteger::get)
          .description("Number of currently used workers per controller")
          .tag("controller", controller).register(registry);
      int max = maxConcurrentReconciles.applyAsInt(controller);
      Gauge.builder("controller.runtime.max.concurrent.reconciles", () -> max)
          .description("Maximum number of concurrent reconciles per controller")
          .tag("controller", controller).register(registry);
      Gauge.builder("workqueue.depth", queued, Map::size)
          .description("Current depth of workqueue")
          .tag("name", controller).tag("controller", controller).register(registry);
      adds = Counter.builder("workqueue.adds")
          .description("Total number of adds handled by workqueue")
          .tag("name", controller).tag("controller", controller).register(registry);
      queueDuration = Timer.builder("workqueue.queue.duration")
          .description("How long in seconds an item stays in workqueue before being requested")
          .serviceLevelObjectives(durations(QUEUE_BUCKETS))
          .tag("name", controller).tag("controller", controller).register(registry);
    }

    private Counter result(String controller, String result) {
      return Counter.builder("controller.runtime.reconcile")
          .description("Total number of reconciliations per controller")
          .tag("controller", controller).tag("result", result).register(registry);
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
    delegate.receivedEvent(event, metadata);
  }

  @Override
  public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
    ControllerMeters meters = meters(metadata);
    if (meters != null) {
      Long added = meters.queued.remove(ResourceID.fromResource(resource));
      if (added != null) {
        meters.queueDuration.record(nanoClock.getAsLong() - added, TimeUnit.NANOSECONDS);
      }
      meters.activeWorkers.incrementAndGet();
    }
    delegate.reconciliationExecutionStarted(resource, metadata);
  }

  @Override
  public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
    ControllerMeters meters = meters(metadata);
    if (meters != null) {
      meters.activeWorkers.decrementAndGet();
    }
    delegate.reconciliationExecutionFinished(resource, metadata);
  }

  @Override
  public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
    ControllerMeters meters = meters(metadata);
    if (meters != null) {
      meters.queued.remove(resourceID);
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
    try {
      T result = delegate.timeControllerExecution(execution);
      boolean requeued = result instanceof BaseControl<?> control && control.getScheduleDelay().isPresent();
      (requeued ? meters.requeueAfter : meters.success).increment();
      return result;
    } catch (Exception | Error e) {
      meters.error.increment();
      meters.errors.increment();
      throw e;
    } finally {
      meters.reconcileTime.record(nanoClock.getAsLong() - start, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
    delegate.reconcileCustomResource(resource, retryInfo, metadata);
  }

  @Override
  public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
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
    return controllers.computeIfAbsent(kind.toLowerCase(Locale.ROOT), ControllerMeters::new);
  }

  private static Duration[] durations(double[] seconds) {
    return DoubleStream.of(seconds).mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9))).toArray(Duration[]::new);
  }
}
