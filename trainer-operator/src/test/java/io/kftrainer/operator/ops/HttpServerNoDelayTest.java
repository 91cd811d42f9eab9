package io.kftrainer.operator.ops;

import io.kftrainer.webhook.HttpServerNoDelay;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.kftrainer.webhook.WebhookServer;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * The JDK HTTP servers of the operator accept their sockets with {@code TCP_NODELAY}: without it every
 * AdmissionReview stalled ~40 ms twice (Nagle's algorithm meeting delayed ACKs). The JDK decides once per JVM, from
 * {@code sun.net.httpserver.ServerConfig.noDelay()}: whichever server class a JVM touches first, the answer must be
 * true.
 */
class HttpServerNoDelayTest {

  @Test
  void theServersOfThisJvmAcceptSocketsWithTcpNoDelay() throws Exception {
    Class.forName(WebhookServer.class.getName(), true, getClass().getClassLoader());
    Class.forName(OpsServer.class.getName(), true, getClass().getClassLoader());
    HttpServer.create().stop(0);

    Method noDelay = Class.forName("sun.net.httpserver.ServerConfig").getDeclaredMethod("noDelay");
    noDelay.setAccessible(true);

    assertThat(noDelay.invoke(null)).isEqualTo(true);
    assertThat(System.getProperty(HttpServerNoDelay.PROPERTY)).isEqualTo("true");
  }
}
