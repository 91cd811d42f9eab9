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
  private final String token;
  private final HttpClient client;

  /** Requests with the server's admin token. */
  Http(EmbeddedApiServer server) {
    this(server, server.bearerToken());
  }

  /** Requests with {@code token} as bearer token; none when null. */
  Http(EmbeddedApiServer server, String token) {
    this.baseUrl = server.url();
    this.token = token;
    HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5));
    this.client = (server.url().startsWith("https") ? builder.sslContext(server.trustingSslContext()) : builder)
        .build();
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

  Response put(String path, String contentType, String body) {
    return send(request(path).header("Content-Type", contentType)
        .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  Response post(String path, String contentType, String body) {
    return send(request(path).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  Response post(String path, String contentType, HttpRequest.BodyPublisher body) {
    return send(request(path).header("Content-Type", contentType).POST(body).build());
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10));
    return token == null ? builder : builder.header("Authorization", "Bearer " + token);
  }

  private Response send(HttpRequest request) {
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body(), response);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
