package io.kftrainer.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The panels of a Grafana dashboard's JSON as the tests read them: the queries checked against a real Prometheus and
 * the layout the dashboard's screenshot is drawn in. Grafana's variables are replaced as Grafana replaces them with
 * {@code job} set to All and a data source scraped at Grafana's default interval (15 s): {@code $job} by
 * {@code .+} (the variable's allValue), {@code $__rate_interval} by {@code 1m} (four scrape intervals).
 */
public record GrafanaDashboard(String title, List<Panel> panels) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A panel: {@code row}, {@code stat} or {@code timeseries}; where it is on the 24-column grid. */
  public record Panel(String type, String title, String unit, GridPos gridPos, List<Target> targets) {
  }

  /** A panel's place in grid units: 24 columns, rows of Grafana's 30 px cells. */
  public record GridPos(int x, int y, int w, int h) {
  }

  /** A query of a panel; {@code legendFormat} names its series with {@code {{label}}} placeholders. */
  public record Target(String expr, String legendFormat) {

    /** The query with the dashboard's variables replaced. */
    public String promql() {
      return expr.replace("$job", ".+").replace("$__rate_interval", "1m");
    }
  }

  public static GrafanaDashboard read(Path json) throws IOException {
    JsonNode dashboard = JSON.readTree(json.toFile());
    List<Panel> panels = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      List<Target> targets = new ArrayList<>();
      for (JsonNode target : panel.path("targets")) {
        targets.add(new Target(target.path("expr").asText(), target.path("legendFormat").asText()));
      }
      JsonNode grid = panel.path("gridPos");
      panels.add(new Panel(panel.path("type").asText(), panel.path("title").asText(),
          panel.path("fieldConfig").path("defaults").path("unit").asText("none"),
          new GridPos(grid.path("x").asInt(), grid.path("y").asInt(), grid.path("w").asInt(), grid.path("h").asInt()),
          List.copyOf(targets)));
    }
    return new GrafanaDashboard(dashboard.path("title").asText(), List.copyOf(panels));
  }

  /** Every query of every panel, variables replaced. */
  public List<String> queries() {
    return panels.stream().flatMap(panel -> panel.targets().stream()).map(Target::promql).toList();
  }
}
