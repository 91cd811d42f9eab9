package io.kftrainer.webhook;

/**
 * Turns Nagle's algorithm off on the sockets the JDK's {@code HttpServer} and {@code HttpsServer} accept: the
 * webhook server ({@code kube-apiserver} calls it on every TrainJob and runtime create or update) and the ops
 * server.
 *
 * <p>With Nagle on, the JDK server writes a response's headers and its body as two small segments; the second waits
 * for the ACK of the first, which the client delays by up to 40 ms: an AdmissionReview took ~100 ms instead of a
 * few. The JDK server has no per-server or per-socket setting: it sets {@code TCP_NODELAY} on accepted sockets only
 * when the system property {@value #PROPERTY} was {@code true} when its {@code sun.net.httpserver.ServerConfig}
 * class was initialised, which happens once per JVM, at the first server created. So {@link #enable()} runs from
 * the static initialisers of the server classes and from {@code main}, before any server exists. An explicit
 * {@code -Dsun.net.httpserver.nodelay=false} is respected.
 */
public final class HttpServerNoDelay {

  /** The JDK server's property, read once per JVM. */
  public static final String PROPERTY = "sun.net.httpserver.nodelay";

  private HttpServerNoDelay() {
  }

  /** Sets {@value #PROPERTY} to {@code true} unless it was set; effective if no JDK HTTP server was created yet. */
  public static void enable() {
    if (System.getProperty(PROPERTY) == null) {
      System.setProperty(PROPERTY, "true");
    }
  }
}
