package io.kftrainer.e2e.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kftrainer.e2e.support.GrafanaDashboard.Panel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Grafana dashboard as one self-contained HTML page, for a screenshot where no Grafana is installed (Debian does
 * not package it): each panel where its gridPos puts it on a 24-column grid, its series drawn as lines or its last
 * value written large, with uPlot. uPlot's script and style are the web UI's pinned copy (trainer-ui's jar, on the
 * class path) and are inlined with the data, so the page opens from a file without any network.
 */
final class DashboardPage {

  /** The page's width; its height follows from the panels' rows. */
  static final int WIDTH = 1440;
  private static final int ROW = 22;
  private static final int GAP = 6;
  private static final int HEADER = 40;
  private static final int BOTTOM = 12;
  private static final String UPLOT = "/META-INF/trainer-ui/vendor/uplot/";
  private static final ObjectMapper JSON = new ObjectMapper();

  private DashboardPage() {
  }

  /** Writes the page of {@code range}'s panels; {@code subtitle} says what the data is. */
  static void write(Path file, String title, String subtitle, DashboardRange range) throws IOException {
    Map<String, Object> dashboard = new LinkedHashMap<>(range.toJson());
    dashboard.putAll(Map.of("title", title, "range", subtitle, "row", ROW, "gap", GAP, "header", HEADER));
    String page = resource("dashboard.html")
        .replace("/*uPlot.min.css*/", resource(UPLOT + "uPlot.min.css"))
        .replace("/*uPlot.iife.min.js*/", resource(UPLOT + "uPlot.iife.min.js"))
        .replace("/*dashboard*/", JSON.writeValueAsString(dashboard).replace("</", "<\\/"));
    Files.createDirectories(file.getParent());
    Files.writeString(file, page);
  }

  /** The page's height in pixels: the header and the grid's rows down to the lowest panel's bottom. */
  static int height(DashboardRange range) {
    int rows = range.panels().stream().map(DashboardRange.PanelSeries::panel).map(Panel::gridPos)
        .mapToInt(grid -> grid.y() + grid.h()).max().orElse(0);
    return HEADER + rows * ROW + (rows - 1) * GAP + BOTTOM;
  }

  /** What the page's script reports it drew: {@code panels} (title: series or values drawn) and {@code errors}. */
  static JsonNode drawn(String dom) throws IOException {
    String start = "<script type=\"application/json\" id=\"drawn\">";
    int from = dom.indexOf(start);
    if (from < 0) {
      throw new IllegalStateException("the page's script did not finish: no #drawn in its DOM");
    }
    return JSON.readTree(dom.substring(from + start.length(), dom.indexOf("</script>", from)));
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = DashboardPage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is not on the class path (uPlot: trainer-ui's jar; build it with"
            + " ./mvnw -B -q -pl trainer-ui -am install -DskipTests)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
