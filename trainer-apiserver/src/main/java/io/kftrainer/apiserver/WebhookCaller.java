package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;

/**
 * Calls one admission webhook the way the API server does: {@code POST}s an {@code admission.k8s.io/v1}
 * AdmissionReview over HTTPS to its {@code url}, or to its {@code service} (resolved by {@link ServiceRoutes},
 * default port 443), with {@code ?timeout=<timeoutSeconds>s}, trusting only its {@code caBundle}
 * ({@link CaBundleTrust}), and checks the answer (an AdmissionReview of the same version with a response for the
 * request's uid, a patch only with patch type {@code JSONPatch}).
 *
 * <p>Any failure is a {@link CallException} whose message reads like the API server's ({@code failed to call
 * webhook: Post "https://svc.ns.svc:443/path?timeout=10s": ...}), so that the failure policy can be applied and the
 * error reported as a cluster would report it.
 *
 * <p>A call runs on the caller's thread from start to end, with blocking I/O ({@link HttpsURLConnection}, whose
 * connections are kept alive and reused per server and trust): a create waits for two webhook calls, and the JDK's
 * asynchronous {@code HttpClient} handed each call's response from its selector thread to a worker thread and then
 * to the caller, three threads to wake where one suffices (a call took three times as long on a busy 2-core
 * machine). Sockets have {@code TCP_NODELAY}, as Go's: the request's headers and body go out as two writes, and
 * with Nagle's algorithm the body would wait for the ACK of the headers, which the server delays by up to 40 ms.
 * The timeout applies to connecting and to each read. A call whose kept-alive connection fails without an answer
 * (the server has just closed it) is sent once more on a new connection, by the JDK; a call that times out is not.
 * The body is buffered, not streamed: the JDK probes a kept-alive connection before a streamed POST with a read
 * that waits 1 ms.
 */
final class WebhookCaller {

  static final String API_VERSION = "admission.k8s.io/v1";
  static final String KIND = "AdmissionReview";
  private static final int DEFAULT_SERVICE_PORT = 443;
  private static final int MAX_CACHED_TRUSTS = 32;

  /** A call that failed: no answer, or one the API server would not accept. */
  static final class CallException extends Exception {

    private static final long serialVersionUID = 1L;

    CallException(String message) {
      super(message);
    }
  }

  /** Where a call goes, how messages show it, and the name the server's certificate must have. */
  private record Endpoint(URI target, String shown, String serverName) {
  }

  static {
    // The JDK keeps at most http.maxConnections (5) idle connections per server: under a burst the other calls
    // of the ADMISSIONS_IN_FLIGHT a server lets through would each pay a TLS handshake. Read once per JVM; an
    // explicit setting is respected.
    if (System.getProperty("http.maxConnections") == null) {
      System.setProperty("http.maxConnections", Integer.toString(AdmissionChain.ADMISSIONS_IN_FLIGHT));
    }
  }

  private final ServiceRoutes services;
  private final KubernetesSerialization serialization;
  private final Map<String, SSLSocketFactory> trusts = new ConcurrentHashMap<>();

  WebhookCaller(ServiceRoutes services, KubernetesSerialization serialization) {
    this.services = Objects.requireNonNull(services, "services");
    this.serialization = Objects.requireNonNull(serialization, "serialization");
  }

  /**
   * Sends {@code review} to {@code webhook} and returns the webhook's response.
   *
   * @throws CallException if there is no usable response
   */
  AdmissionResponse call(RegisteredWebhook webhook, AdmissionReview review) throws CallException {
    String uid = review.getRequest().getUid();
    Endpoint endpoint = endpoint(webhook);
    String post = "Post \"" + endpoint.shown() + "\": ";
    SSLSocketFactory trust = trust(webhook.clientConfig().getCaBundle(), endpoint.serverName(), post);
    byte[] body = serialization.asJson(review).getBytes(StandardCharsets.UTF_8);
    int timeoutMillis = Math.toIntExact(webhook.timeoutSeconds() * 1000L);
    Answer answer;
    try {
      answer = post(endpoint.target(), trust, body, timeoutMillis);
    } catch (SocketTimeoutException e) {
      throw failed(post + "context deadline exceeded");
    } catch (ConnectException e) {
      throw failed(post + "dial tcp " + endpoint.target().getHost() + ":" + endpoint.target().getPort()
          + ": connect: connection refused");
    } catch (SSLException e) {
      throw failed(post + "tls: failed to verify certificate: " + rootMessage(e));
    } catch (IOException e) {
      throw failed(post + rootMessage(e));
    }
    if (answer.code() != 200) {
      throw failed("an error on the server (\"" + answer.body().strip() + "\") has prevented the request from "
          + "succeeding (post " + endpoint.shown() + ")");
    }
    return verify(answer.body(), uid, webhook);
  }

  /** An HTTP answer: its status code and body. */
  private record Answer(int code, String body) {
  }

  /** One POST on this thread; the connection goes back to the JDK's keep-alive cache once the body is read. */
  private static Answer post(URI target, SSLSocketFactory trust, byte[] body, int timeoutMillis)
      throws IOException {
    HttpsURLConnection connection = (HttpsURLConnection) target.toURL().openConnection();
    connection.setSSLSocketFactory(trust);
    // the trust manager has checked the certificate against the Service's name (CaBundleTrust), not the address
    connection.setHostnameVerifier((host, session) -> true);
    connection.setConnectTimeout(timeoutMillis);
    connection.setReadTimeout(timeoutMillis);
    connection.setRequestMethod("POST");
    connection.setDoOutput(true);
    connection.setRequestProperty("Content-Type", "application/json");
    connection.setRequestProperty("Accept", "application/json");
    try (OutputStream out = connection.getOutputStream()) {
      out.write(body);
    }
    int code = connection.getResponseCode();
    InputStream in = code >= 400 ? connection.getErrorStream() : connection.getInputStream();
    if (in == null) {
      return new Answer(code, "");
    }
    try (in) {
      return new Answer(code, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private AdmissionResponse verify(String body, String uid, RegisteredWebhook webhook) throws CallException {
    AdmissionReview answer;
    try {
      answer = serialization.unmarshal(body, AdmissionReview.class);
    } catch (RuntimeException e) {
      throw invalid("the body is not an AdmissionReview: " + rootMessage(e));
    }
    if (answer == null || !API_VERSION.equals(answer.getApiVersion()) || !KIND.equals(answer.getKind())) {
      throw invalid("expected webhook response of " + API_VERSION + ", Kind=" + KIND + ", got "
          + (answer == null ? "nothing" : answer.getApiVersion() + ", Kind=" + answer.getKind()));
    }
    AdmissionResponse response = answer.getResponse();
    if (response == null) {
      throw invalid("webhook response was absent");
    }
    if (!uid.equals(response.getUid())) {
      throw invalid("expected response.uid=\"" + uid + "\", got \"" + response.getUid() + "\"");
    }
    if (response.getAllowed() == null) {
      throw invalid("response.allowed is required");
    }
    boolean hasPatch = response.getPatch() != null && !response.getPatch().isEmpty();
    if (hasPatch && webhook.phase() == AdmissionHook.Phase.MUTATING) {
      if (response.getPatchType() == null) {
        throw invalid("webhook returned response.patch but not response.patchType");
      }
      if (!"JSONPatch".equals(response.getPatchType())) {
        throw invalid("webhook returned invalid response.patchType of \"" + response.getPatchType() + "\"");
      }
    }
    return response;
  }

  private Endpoint endpoint(RegisteredWebhook webhook) throws CallException {
    WebhookClientConfig config = webhook.clientConfig();
    String query = "?timeout=" + webhook.timeoutSeconds() + "s";
    if (config == null) {
      throw failed("the webhook has no clientConfig");
    }
    if (config.getUrl() != null && !config.getUrl().isEmpty()) {
      try {
        URI url = new URI(config.getUrl());
        if (!"https".equals(url.getScheme()) || url.getHost() == null) {
          throw failed("clientConfig.url must be an https URL with a host, was " + config.getUrl());
        }
        URI target = new URI(config.getUrl() + (url.getRawQuery() == null ? query : "&" + query.substring(1)));
        return new Endpoint(target, target.toString(), url.getHost());
      } catch (URISyntaxException e) {
        throw failed("invalid clientConfig.url " + config.getUrl() + ": " + e.getMessage());
      }
    }
    ServiceReference service = config.getService();
    if (service == null) {
      throw failed("the webhook's clientConfig has neither url nor service");
    }
    int port = service.getPort() == null ? DEFAULT_SERVICE_PORT : service.getPort();
    String path = service.getPath() == null ? "" : service.getPath();
    String serverName = service.getName() + "." + service.getNamespace() + ".svc";
    String shown = "https://" + serverName + ":" + port + path + query;
    InetSocketAddress address = services.resolve(service.getNamespace(), service.getName(), port)
        .orElseThrow(() -> failed("Post \"" + shown + "\": service \"" + service.getName() + "\" not found"));
    String host = address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress();
    try {
      URI target = new URI("https", null, host, address.getPort(), path.isEmpty() ? "/" : path,
          query.substring(1), null);
      return new Endpoint(target, shown, serverName);
    } catch (URISyntaxException e) {
      throw failed("Post \"" + shown + "\": " + e.getMessage());
    }
  }

  private SSLSocketFactory trust(String caBundle, String serverName, String post) throws CallException {
    String key = (caBundle == null ? "" : caBundle) + "|" + serverName;
    SSLSocketFactory cached = trusts.get(key);
    if (cached != null) {
      return cached;
    }
    SSLSocketFactory trust;
    try {
      trust = new NoDelaySocketFactory(CaBundleTrust.sslContext(caBundle, serverName).getSocketFactory());
    } catch (GeneralSecurityException e) {
      throw failed(post + "invalid caBundle: " + rootMessage(e));
    }
    if (trusts.size() >= MAX_CACHED_TRUSTS) {
      trusts.clear();
    }
    // the same factory for the same trust: the JDK's keep-alive cache reuses connections per factory
    trusts.put(key, trust);
    return trust;
  }

  private static CallException failed(String detail) {
    return new CallException("failed to call webhook: " + detail);
  }

  private static CallException invalid(String detail) {
    return new CallException("received invalid webhook response: " + detail);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }

  /** TLS sockets with {@code TCP_NODELAY}: {@link HttpsURLConnection} has no setting for it. */
  private static final class NoDelaySocketFactory extends SSLSocketFactory {

    private final SSLSocketFactory delegate;

    NoDelaySocketFactory(SSLSocketFactory delegate) {
      this.delegate = delegate;
    }

    private static Socket noDelay(Socket socket) throws IOException {
      socket.setTcpNoDelay(true);
      return socket;
    }

    @Override
    public String[] getDefaultCipherSuites() {
      return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
      return delegate.getSupportedCipherSuites();
    }

    @Override
    public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
      return noDelay(delegate.createSocket(noDelay(socket), host, port, autoClose));
    }

    @Override
    public Socket createSocket() throws IOException {
      return noDelay(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
      return noDelay(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
        throws IOException {
      return noDelay(delegate.createSocket(address, port, localAddress, localPort));
    }
  }
}
