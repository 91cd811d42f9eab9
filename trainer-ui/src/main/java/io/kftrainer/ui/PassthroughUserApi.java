package io.kftrainer.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code local}'s way: the user's own token goes to the API server with each read, and the API server
 * authenticates and authorizes it as it does kubectl's. The UI holds no rights of its own.
 */
public final class PassthroughUserApi implements UserApi {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SELF_REVIEW = "{\"apiVersion\": \"authentication.k8s.io/v1\", "
      + "\"kind\": \"SelfSubjectReview\"}";

  private final URI server;
  private final HttpClient http;

  /** @param server the API server's base URL, e.g. {@code http://127.0.0.1:41234} */
  public PassthroughUserApi(URI server, HttpClient http) {
    this.server = Objects.requireNonNull(server, "server");
    this.http = Objects.requireNonNull(http, "http");
  }

  @Override
  public HttpClient http() {
    return http;
  }

  /** Asks the API server who the token is (a SelfSubjectReview made with it). */
  @Override
  public Optional<String> userOf(String token) throws IOException, InterruptedException {
    HttpRequest review = HttpRequest.newBuilder(server.resolve("/apis/authentication.k8s.io/v1/selfsubjectreviews"))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(SELF_REVIEW))
        .build();
    HttpResponse<String> answer = http.send(review, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() / 100 != 2) {
      return Optional.empty();
    }
    JsonNode user = JSON.readTree(answer.body()).path("status").path("userInfo").path("username");
    return user.isTextual() ? Optional.of(user.asText()) : Optional.empty();
  }

  @Override
  public HttpRequest.Builder get(String token, String pathAndQuery) {
    return HttpRequest.newBuilder(server.resolve(pathAndQuery)).header("Authorization", "Bearer " + token).GET();
  }
}
