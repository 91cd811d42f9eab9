package io.kftrainer.operator.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The two Go runtime gauges that dashboards written for controller-runtime managers chart (upstream's Grafana
 * dashboard, PR #3653, has a "Goroutines" panel), from the JVM's nearest equivalent: {@code go_goroutines} and
 * {@code go_threads}, both the JVM's live threads. The rest of client_golang's Go collector (GC, scheduler and
 * allocator internals) has no JVM meaning and is not served; {@code jvm_*} says the same for a JVM.
 */
public final class GoRuntimeEquivalents implements MeterBinder {

  @Override
  public void bindTo(MeterRegistry registry) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Gauge.builder("go.goroutines", threads, ThreadMXBean::getThreadCount)
        .description("Number of goroutines that currently exist (here: the JVM's live threads).").register(registry);
    Gauge.builder("go.threads", threads, ThreadMXBean::getThreadCount)
        .description("Number of OS threads created (here: the JVM's live threads).").register(registry);
  }
}
