package io.kftrainer.operator.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * Filters of the operator's meter registry so that Prometheus' linter ({@code promtool check metrics}) finds
 * nothing to say about the exposition: JOSDK's meters, which come without one, get a help text; Micrometer's
 * {@code process_cpu_time_ns_total} (an abbreviated unit) is left out, {@code process_cpu_seconds_total} saying the
 * same; its {@code system_cpu_count} (a gauge named like a histogram's count) is served as
 * {@code system_available_processors}. Installed before any meter is registered.
 */
public final class LintFilters {

  private LintFilters() {
  }

  public static void install(MeterRegistry registry) {
    registry.config()
        .meterFilter(MeterFilter.denyNameStartsWith("process.cpu.time"))
        .meterFilter(new MeterFilter() {
          @Override
          public Meter.Id map(Meter.Id id) {
            if (id.getName().equals("system.cpu.count")) {
              return rename(id, "system.available.processors");
            }
            if (id.getName().startsWith("operator.sdk.") && (id.getDescription() == null
                || id.getDescription().isBlank())) {
              return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(),
                  "Java Operator SDK's " + id.getName(), id.getType());
            }
            return id;
          }
        });
  }

  private static Meter.Id rename(Meter.Id id, String name) {
    return new Meter.Id(name, Tags.of(id.getTagsAsIterable()), id.getBaseUnit(), id.getDescription(), id.getType());
  }
}
