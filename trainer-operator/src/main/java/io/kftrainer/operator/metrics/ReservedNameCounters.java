package io.kftrainer.operator.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counters whose Prometheus names the Prometheus Java client refuses: it reserves the suffix {@code _created} (the
 * OpenMetrics creation timestamp) and would register {@code kubeflow_trainer_trainjobs_created_total} as
 * {@code kubeflow_trainer_trainjobs_total}. Upstream's name is the Go client's, which allows it; so these are kept
 * here and written after the registry's scrape by {@link #write}, in the same format. One set per meter registry
 * ({@link #of}), so that whoever records and whoever scrapes find the same.
 */
public final class ReservedNameCounters {

  private static final Map<MeterRegistry, ReservedNameCounters> BY_REGISTRY =
      Collections.synchronizedMap(new WeakHashMap<>());

  private record Family(String help, Map<Map<String, String>, DoubleAdder> series) {
  }

  private final Map<String, Family> families = new ConcurrentHashMap<>();

  /** The counters kept beside {@code registry}. */
  public static ReservedNameCounters of(MeterRegistry registry) {
    return BY_REGISTRY.computeIfAbsent(Objects.requireNonNull(registry, "registry"), r -> new ReservedNameCounters());
  }

  /**
   * Adds one to the series {@code labels} of the counter {@code name} (its full name, {@code _total} included).
   */
  public void increment(String name, String help, Map<String, String> labels) {
    families.computeIfAbsent(name, n -> new Family(help, new ConcurrentHashMap<>()))
        .series().computeIfAbsent(new TreeMap<>(labels), l -> new DoubleAdder()).add(1);
  }

  public boolean isEmpty() {
    return families.isEmpty();
  }

  /**
   * Writes the counters in the Prometheus text format, or in OpenMetrics (whose family name has no {@code _total}).
   */
  public void write(StringBuilder out, boolean openMetrics) {
    for (Map.Entry<String, Family> entry : new TreeMap<>(families).entrySet()) {
      String name = entry.getKey();
      String family = openMetrics ? name.substring(0, name.length() - "_total".length()) : name;
      out.append("# HELP ").append(family).append(' ').append(entry.getValue().help()).append('\n');
      out.append("# TYPE ").append(family).append(" counter\n");
      List<Map.Entry<Map<String, String>, DoubleAdder>> series = new ArrayList<>(entry.getValue().series().entrySet());
      series.sort((a, b) -> a.getKey().toString().compareTo(b.getKey().toString()));
      for (Map.Entry<Map<String, String>, DoubleAdder> sample : series) {
        out.append(name).append('{');
        String separator = "";
        for (Map.Entry<String, String> label : sample.getKey().entrySet()) {
          out.append(separator).append(label.getKey()).append("=\"").append(escape(label.getValue())).append('"');
          separator = ",";
        }
        out.append("} ").append(sample.getValue().sum()).append('\n');
      }
    }
  }

  private static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
