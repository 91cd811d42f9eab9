package io.kftrainer.apiserver;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads request bodies as kube-apiserver does ({@code limitedReadBody}): at most {@value #LIMIT} bytes (3 MiB, its
 * {@code MaxRequestBodyBytes}); a larger body answers 413 {@code RequestEntityTooLarge}. A declared
 * {@code Content-Length} over the limit is refused before a byte is read; a chunked body is read only up to one byte
 * past the limit. What is left is read and thrown away after the answer
 * ({@link io.kftrainer.http.EarlyAnswers}), so an oversized body never sits in memory and the client reads the 413.
 */
final class RequestBodies {

  static final int LIMIT = 3 * 1024 * 1024;

  private RequestBodies() {
  }

  /** The body of {@code exchange}; throws {@link ApiException} (413) when it is over {@link #LIMIT}. */
  static byte[] read(HttpExchange exchange) throws IOException {
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      try {
        if (Long.parseLong(declared.trim()) > LIMIT) {
          throw tooLarge();
        }
      } catch (NumberFormatException e) {
        // the JDK server has refused malformed lengths already; read what comes, bounded
      }
    }
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(LIMIT + 1);
      if (body.length > LIMIT) {
        throw tooLarge();
      }
      return body;
    }
  }

  private static ApiException tooLarge() {
    return new ApiException(Response.status(413, "RequestEntityTooLarge",
        "Request entity too large: limit is " + LIMIT));
  }
}
