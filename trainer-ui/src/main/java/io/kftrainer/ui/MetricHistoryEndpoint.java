package io.kftrainer.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.kftrainer.statusserver.history.MetricHistory;
import io.kftrainer.statusserver.history.MetricPoint;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /history/namespaces/<ns>/trainjobs/<name>}: a TrainJob's metric history, for whoever may get the
 * TrainJob: the TrainJob is read first as the user, and the API server's refusal (401, 403, 404) is the answer.
 * The body: {@code {"metrics": [{"name": "loss", "points": [[report, millis, value], ...]}, ...]}}, the series in
 * the order their metrics were first reported.
 */
final class MetricHistoryEndpoint {

  static final Pattern PATH = Pattern.compile("/history/namespaces/([a-z0-9][-a-z0-9]*)/trainjobs/"
      + "([a-z0-9][-a-z0-9.]*)");

  private final UserApi api;
  private final MetricHistory history;

  MetricHistoryEndpoint(UserApi api, MetricHistory history) {
    this.api = api;
    this.history = history;
  }

  void serve(HttpExchange exchange, Matcher path, String token) throws IOException, InterruptedException,
      UserApi.Unauthenticated, UserApi.Forbidden {
    String namespace = path.group(1);
    String name = path.group(2);
    HttpRequest get = api.get(token, "/apis/trainer.kubeflow.org/v1alpha1/namespaces/" + namespace + "/trainjobs/"
        + name).build();
    api.http().sendAsync(get, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, failure) -> {
      if (failure != null) {
        Answers.send(exchange, Answers.status(502, "BadGateway", "The API server cannot be reached"));
      } else if (response.statusCode() != 200) {
        Answers.send(exchange, new Answers.Answer(response.statusCode(), "application/json", response.body()));
      } else {
        Answers.send(exchange, answer(namespace, name, response.body()));
      }
    });
  }

  private Answers.Answer answer(String namespace, String name, byte[] trainJob) {
    try {
      JsonNode uid = Answers.JSON.readTree(trainJob).path("metadata").path("uid");
      Map<String, List<MetricPoint>> series = history.series(namespace, name, uid.asText(""));
      ObjectNode body = Answers.JSON.createObjectNode();
      ArrayNode metrics = body.putArray("metrics");
      series.forEach((metric, points) -> {
        ObjectNode node = metrics.addObject().put("name", metric);
        ArrayNode values = node.putArray("points");
        points.forEach(point -> values.addArray().add(point.report()).add(point.timeMillis()).add(point.value()));
      });
      return Answers.json(200, body);
    } catch (IOException | RuntimeException e) {
      return Answers.status(500, "InternalError", "The metric history cannot be read");
    }
  }
}
