package io.kftrainer.operator.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A checked-in list of metrics upstream serves or proposes ({@code upstream-manager-metrics.txt}: its manager's;
 * {@code upstream-pr-3433-metrics.txt}: its PR's), whose header says how it was derived, and what this operator
 * leaves out of it.
 */
public record UpstreamManagerMetrics(Map<String, Metric> metrics, Map<String, List<String>> values,
    List<String> omittedPrefixes, Map<String, Set<String>> omittedValues, Map<String, List<Double>> buckets) {

  public static final String MANAGER = "upstream-manager-metrics.txt";
  public static final String PR_3433 = "upstream-pr-3433-metrics.txt";

  /** A family: its type and its samples' label names. */
  public record Metric(String name, String type, Set<String> labels) {
  }

  public static UpstreamManagerMetrics read() {
    return read(MANAGER);
  }

  public static UpstreamManagerMetrics read(String file) {
    Map<String, Metric> metrics = new LinkedHashMap<>();
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> omitted = new ArrayList<>();
    Map<String, Set<String>> omittedValues = new LinkedHashMap<>();
    Map<String, List<Double>> buckets = new LinkedHashMap<>();
    for (String line : text(file).split("\n")) {
      String[] words = line.trim().split("\\s+");
      switch (words[0]) {
        case "metric" -> metrics.put(words[1], new Metric(words[1], words[2],
            "-".equals(words[3]) ? Set.of() : new TreeSet<>(List.of(words[3].split(",")))));
        case "values" -> values.put(words[1], List.of(words).subList(2, words.length));
        case "omit" -> omitted.add(words[1].replace("*", ""));
        case "omit-value" -> omittedValues.computeIfAbsent(words[1], label -> new TreeSet<>()).add(words[2]);
        case "buckets" -> buckets.put(words[1], Stream.of(words[2].split(",")).map(Double::valueOf).toList());
        default -> {
          // comments and blank lines
        }
      }
    }
    return new UpstreamManagerMetrics(metrics, values, omitted, omittedValues, buckets);
  }

  /** Whether a family upstream serves is one this operator leaves out on purpose. */
  public boolean isOmitted(String family) {
    return omittedPrefixes.stream().anyMatch(family::startsWith) && !metrics.containsKey(family);
  }

  /** The values of {@code label} this operator serves: upstream's, less those left out. */
  public List<String> servedValues(String label) {
    Set<String> left = omittedValues.getOrDefault(label, Set.of());
    return values.get(label).stream().filter(value -> !left.contains(value)).toList();
  }

  private static String text(String file) {
    try (InputStream in = UpstreamManagerMetrics.class.getResourceAsStream(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
