package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Raw HTTP against the embedded server, for what the fabric8 client hides (status codes, headers, tables). */
final class Http {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  record Response(int code, String body, HttpResponse<String> raw) {
    JsonNode json() {
      try {
        return MAPPER.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private final String baseUrl;

  Http(EmbeddedApiServer server) {
    this.baseUrl = server.url();
  }

  Response get(String path) {
    return send(request(path).GET().build());
  }

  Response get(String path, String accept) {
    return send(request(path).header("Accept", accept).GET().build());
  }

  Response patch(String path, String contentType, String body) {
    return send(request(path).header("Content-Type", contentType)
        .method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build());
  }

  Response post(String path, String contentType, String body) {
    return send(request(path).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10));
  }

  private static Response send(HttpRequest request) {
    try {
      HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body(), response);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
