package io.kftrainer.e2e.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import io.kftrainer.e2e.support.GrafanaDashboard;
import io.kftrainer.e2e.support.GrafanaDashboard.Panel;
import io.kftrainer.e2e.support.GrafanaDashboard.Target;
import io.kftrainer.e2e.support.Prometheus;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each panel of the Grafana dashboard shows over a time range of a real Prometheus: every query of the panel as
 * a {@code query_range}, its series named by the query's legendFormat as Grafana names them, their values on one time
 * axis (a point every step; null where Prometheus has none or the value is NaN), the shape uPlot draws.
 */
record DashboardRange(long[] times, List<PanelSeries> panels) {

  private static final int POINTS = 240;
  private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*(\\w+)\\s*}}");

  /** A panel and the series its queries returned. */
  record PanelSeries(Panel panel, List<Series> series) {
  }

  /** A series of a query: its legend and its values, one per time of the range. */
  record Series(Target target, String label, Double[] values) {

    /** Whether the series has two values or more: enough for a line (a stat's sparkline). */
    boolean drawsALine() {
      return Arrays.stream(values).filter(Objects::nonNull).count() >= 2;
    }
  }

  /** The panels from {@code start} to {@code end}, about {@value #POINTS} points a series (at most one a second). */
  static DashboardRange query(Prometheus prometheus, GrafanaDashboard dashboard, Instant start, Instant end)
      throws IOException, InterruptedException {
    Duration step = Duration.ofSeconds(Math.max(1, Duration.between(start, end).toSeconds() / POINTS));
    long first = start.getEpochSecond();
    int points = (int) ((end.getEpochSecond() - first) / step.toSeconds()) + 1;
    long[] times = new long[points];
    for (int i = 0; i < points; i++) {
      times[i] = first + i * step.toSeconds();
    }
    List<PanelSeries> panels = new ArrayList<>();
    for (Panel panel : dashboard.panels()) {
      List<Series> series = new ArrayList<>();
      for (Target target : panel.targets()) {
        for (JsonNode result : prometheus.queryRange(target.promql(), Instant.ofEpochSecond(first),
            Instant.ofEpochSecond(times[points - 1]), step)) {
          series.add(new Series(target, legend(target.legendFormat(), result.path("metric")),
              values(result.path("values"), first, step, points)));
        }
      }
      panels.add(new PanelSeries(panel, List.copyOf(series)));
    }
    return new DashboardRange(times, List.copyOf(panels)).fromFirstValue();
  }

  /** The range from the first time any series has a value: Prometheus' start and first scrape left out. */
  private DashboardRange fromFirstValue() {
    int first = panels.stream().flatMap(panel -> panel.series().stream()).mapToInt(series -> {
      int index = 0;
      while (index < series.values().length - 1 && series.values()[index] == null) {
        index++;
      }
      return index;
    }).min().orElse(0);
    return new DashboardRange(Arrays.copyOfRange(times, first, times.length), panels.stream()
        .map(panel -> new PanelSeries(panel.panel(), panel.series().stream().map(series -> new Series(
            series.target(), series.label(), Arrays.copyOfRange(series.values(), first, times.length))).toList()))
        .toList());
  }

  Instant start() {
    return Instant.ofEpochSecond(times[0]);
  }

  Instant end() {
    return Instant.ofEpochSecond(times[times.length - 1]);
  }

  /** {@code "<panel>: <query>"} for each query of a panel (rows aside) none of whose series draws a line. */
  List<String> blankQueries() {
    List<String> blank = new ArrayList<>();
    for (PanelSeries panel : panels) {
      for (Target target : panel.panel().targets()) {
        if (panel.series().stream().noneMatch(series -> series.target().equals(target) && series.drawsALine())) {
          blank.add(panel.panel().title() + ": " + target.promql());
        }
      }
    }
    return blank;
  }

  private static String legend(String format, JsonNode labels) {
    if (format.isBlank()) {
      return labels.toString();
    }
    Matcher placeholder = LEGEND_LABEL.matcher(format);
    return placeholder.replaceAll(label -> Matcher.quoteReplacement(labels.path(label.group(1)).asText()));
  }

  private static Double[] values(JsonNode points, long first, Duration step, int count) {
    Double[] values = new Double[count];
    for (JsonNode point : points) {
      int index = (int) ((point.get(0).asLong() - first) / step.toSeconds());
      double value = Double.parseDouble(point.get(1).asText());
      if (index >= 0 && index < count && Double.isFinite(value)) {
        values[index] = value;
      }
    }
    return values;
  }

  /** The panels, series and times as the page's script reads them. */
  Map<String, Object> toJson() {
    List<Map<String, Object>> drawn = new ArrayList<>();
    for (PanelSeries panel : panels) {
      Panel p = panel.panel();
      drawn.add(Map.of("type", p.type(), "title", p.title(), "unit", p.unit(), "x", p.gridPos().x(),
          "y", p.gridPos().y(), "w", p.gridPos().w(), "h", p.gridPos().h(),
          "series", panel.series().stream().map(series -> Map.of("label", series.label(),
              "values", series.values())).toList()));
    }
    return Map.of("times", times, "panels", drawn);
  }
}
