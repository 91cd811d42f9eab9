package io.kftrainer.operator.ui;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.kftrainer.operator.app.OperatorComponent;
import io.kftrainer.operator.app.OperatorContext;
import io.kftrainer.operator.ops.DelegatingAuth;
import io.kftrainer.ui.UiServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The web UI in the operator ({@code --ui-port}, the chart's {@code ui.enabled}; off by default): HTTPS with the
 * webhook's certificate, on every replica; each user signs in with a bearer token of their own, and every read is
 * authorized for that user ({@link ReviewingUserApi}). The metric history comes from
 * {@link OperatorContext#metricHistory()}. Added after the webhook server, which starts the certificates.
 */
public final class UiComponent implements OperatorComponent {

  private static final int RELAY_THREADS = 2;

  private final OperatorContext context;
  private final int port;
  private UiServer server;
  private ExecutorService relay;

  private UiComponent(OperatorContext context, int port) {
    this.context = context;
    this.port = port;
  }

  public static Factory factory(int port) {
    return context -> new UiComponent(context, port);
  }

  @Override
  public String name() {
    return "ui-server";
  }

  @Override
  public synchronized void start() throws Exception {
    SSLContext tls = context.webhookCertificates().keyManager().serverContext();
    Config config = context.client().getConfiguration();
    AtomicInteger count = new AtomicInteger();
    relay = Executors.newFixedThreadPool(RELAY_THREADS, runnable -> {
      Thread thread = new Thread(runnable, "ui-relay-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    HttpClient http = HttpClient.newBuilder().sslContext(SSLUtils.sslContext(config)).executor(relay).build();
    ReviewingUserApi users = new ReviewingUserApi(new DelegatingAuth(context.client()),
        URI.create(config.getMasterUrl()), http, ReviewingUserApi.tokenOf(config));
    server = new UiServer(new UiServer.Settings(new InetSocketAddress(context.config().bindAddress(), port), tls,
        Set.of()), users, context.metricHistory());
    server.start();
  }

  /** The port listened on. */
  public int port() {
    return server.port();
  }

  @Override
  public synchronized void stop() {
    if (server != null) {
      server.close();
    }
    if (relay != null) {
      relay.shutdownNow();
    }
  }
}
