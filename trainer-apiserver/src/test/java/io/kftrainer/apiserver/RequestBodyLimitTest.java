package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Request bodies over 3 MiB are refused with kube-apiserver's 413 before they are read whole: a declared
 * Content-Length of 64 MB is answered without sending the body at all, a chunked body once it passes the limit.
 */
class RequestBodyLimitTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  private static final String PATH = "/api/v1/namespaces/big/configmaps";

  @Test
  void aDeclaredBodyOf64MegabytesIsRefusedBeforeItIsSent() throws Exception {
    try (Socket socket = socket()) {
      OutputStream out = socket.getOutputStream();
      out.write(headers("Content-Length: " + (64 << 20)).getBytes(StandardCharsets.US_ASCII));
      out.flush();

      String answer = read(socket);

      assertThat(answer).startsWith("HTTP/1.1 413");
      assertThat(answer).contains("\"reason\":\"RequestEntityTooLarge\"",
          "\"message\":\"Request entity too large: limit is 3145728\"");
    }
  }

  @Test
  void aChunkedBodyIsRefusedOnceItPassesTheLimit() throws Exception {
    try (Socket socket = socket()) {
      OutputStream out = socket.getOutputStream();
      out.write(headers("Transfer-Encoding: chunked").getBytes(StandardCharsets.US_ASCII));
      byte[] chunk = new byte[64 * 1024];
      Arrays.fill(chunk, (byte) 'a');
      for (int i = 0; i < 3 * 16 + 1; i++) { // 3 MiB and one more chunk
        out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(chunk);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      out.flush();

      assertThat(read(socket)).startsWith("HTTP/1.1 413").contains("RequestEntityTooLarge");
    }
  }

  @Test
  void aBodyJustUnderTheLimitIsRead() {
    String value = "a".repeat(RequestBodies.LIMIT - 200);
    Http.Response answer = new Http(API.server()).post(PATH, "application/json",
        "{\"metadata\":{\"name\":\"under\"},\"data\":{\"v\":\"" + value + "\"}}");

    assertThat(answer.code()).isNotEqualTo(413);
  }

  private static Socket socket() throws Exception {
    URI uri = URI.create(API.server().url());
    Socket socket = API.server().trustingSslContext().getSocketFactory().createSocket(uri.getHost(), uri.getPort());
    socket.setSoTimeout(20_000);
    return socket;
  }

  private static String headers(String length) {
    return "POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Authorization: Bearer " + API.server().bearerToken() + "\r\n" + length + "\r\n\r\n";
  }

  private static String read(Socket socket) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder answer = new StringBuilder();
    char[] buffer = new char[4096];
    for (int n; (n = in.read(buffer)) > 0; ) {
      answer.append(buffer, 0, n);
      if (answer.indexOf("}") > 0) {
        break;
      }
    }
    return answer.toString();
  }
}
