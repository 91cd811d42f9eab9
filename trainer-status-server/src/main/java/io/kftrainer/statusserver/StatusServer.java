package io.kftrainer.statusserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.api.v1alpha1.UpdateTrainJobStatusRequest;
import io.kftrainer.http.EarlyAnswers;
import io.kftrainer.statusserver.history.MetricHistory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's TrainJob status server ({@code pkg/statusserver}): training code POSTs an
 * {@link UpdateTrainJobStatusRequest} to {@code /apis/trainer.kubeflow.org/v1alpha1/namespaces/<ns>/trainjobs/<name>/status}
 * over HTTPS, with a projected ServiceAccount token, and the server applies its {@code trainerStatus} to the
 * TrainJob ({@link TrainerStatusApplier}). It runs on every replica of the operator (no leader election: any
 * replica behind the Service may be called), with the TLS context it is given (the webhook's certificate).
 *
 * <p>A request, in order; every refusal is a Kubernetes {@code Status} (JSON) and changes nothing:
 * <ol>
 *   <li>a path other than the status endpoint: 404; another method than POST: 405;</li>
 *   <li>a body over {@value #MAX_BODY_BYTES} bytes: 413, before the token is looked at;</li>
 *   <li>the bearer token ({@link TokenAuthenticator}): none or invalid or expired 401, another TrainJob's 403 (upstream
 *       answers 403 to both);</li>
 *   <li>the TrainJob's rate limit ({@link TrainJobRateLimiter}): 429 with {@code Retry-After} (our addition);</li>
 *   <li>the body: not an update request (bad JSON, a number where a string belongs, a time that is not RFC 3339) 422
 *       {@code Invalid payload}; no {@code trainerStatus}: 200, nothing written, as upstream;</li>
 *   <li>the apply: a TrainJob that does not exist 404; what the API server's validation refuses 422 with its
 *       message (e.g. {@code progressPercentage} over 100); anything else 500. Success: 200 with the request as
 *       applied ({@code lastUpdatedTime} normalised to seconds in UTC, as upstream's {@code metav1.Time}); its
 *       metrics are added to the {@link MetricHistory} (our addition).</li>
 * </ol>
 *
 * <p>Threads: the JDK's HTTPS server with {@value #THREADS} named threads and at most {@value #QUEUE} requests
 * waiting; beyond that a connection is closed (the training code retries later). The token never appears in logs or
 * answers.
 */
public final class StatusServer implements AutoCloseable {

  public static final int MAX_BODY_BYTES = 64 * 1024;
  static final int THREADS = 4;
  static final int QUEUE = 64;
  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final Pattern STATUS_PATH = Pattern.compile(
      "/apis/trainer\\.kubeflow\\.org/v1alpha1/namespaces/([^/]+)/trainjobs/([^/]+)/status");
  private static final String JSON_TYPE = "application/json";

  /**
   * @param address where to listen
   * @param qps updates per second each TrainJob may make on average
   * @param burst updates each TrainJob may make at once
   */
  public record Settings(InetSocketAddress address, double qps, int burst) {
    public Settings {
      Objects.requireNonNull(address, "address");
    }
  }

  private final Settings settings;
  private final IntConsumer answered;
  private final SSLContext tls;
  private final TokenAuthenticator authenticator;
  private final TrainerStatusApplier applier;
  private final TrainJobRateLimiter limiter;
  private final TrainJobs trainJobs;
  private final MetricHistory history;
  private final ObjectMapper json;
  private volatile HttpsServer server;
  private ThreadPoolExecutor executor;

  /**
   * @param client the client the status is applied with (the operator's)
   * @param trainJobs the TrainJobs as the operator's cache has them: an unchanged status is not written
   */
  public StatusServer(Settings settings, SSLContext tls, TokenAuthenticator authenticator, KubernetesClient client,
      TrainJobs trainJobs) {
    this(settings, tls, authenticator, client, trainJobs, code -> { }, MetricHistory.none());
  }

  /** As above, telling {@code answered} the HTTP status of every answer (the operator's metrics). */
  public StatusServer(Settings settings, SSLContext tls, TokenAuthenticator authenticator, KubernetesClient client,
      TrainJobs trainJobs, IntConsumer answered) {
    this(settings, tls, authenticator, client, trainJobs, answered, MetricHistory.none());
  }

  /** As above, keeping every accepted report's metrics in {@code history}. */
  public StatusServer(Settings settings, SSLContext tls, TokenAuthenticator authenticator, KubernetesClient client,
      TrainJobs trainJobs, MetricHistory history) {
    this(settings, tls, authenticator, client, trainJobs, code -> { }, history);
  }

  /**
   * @param answered told the HTTP status of every answer (the operator's metrics)
   * @param history where every accepted report's metrics are kept
   */
  public StatusServer(Settings settings, SSLContext tls, TokenAuthenticator authenticator, KubernetesClient client,
      TrainJobs trainJobs, IntConsumer answered, MetricHistory history) {
    this.answered = Objects.requireNonNull(answered, "answered");
    this.trainJobs = Objects.requireNonNull(trainJobs, "trainJobs");
    this.history = Objects.requireNonNull(history, "history");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.tls = Objects.requireNonNull(tls, "tls");
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    this.json = strictMapper();
    this.applier = new TrainerStatusApplier(new ClusterApi(client), trainJobs, json);
    this.limiter = new TrainJobRateLimiter(settings.qps(), settings.burst());
  }

  /** Upstream's decoding: unknown fields ignored; no string-to-number or float-to-integer coercion. */
  private static ObjectMapper strictMapper() {
    return JsonMapper.builder()
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
  }

  public synchronized void start() throws IOException {
    if (server != null) {
      throw new IllegalStateException("already started");
    }
    HttpsServer https = HttpsServer.create(settings.address(), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(tls) {
      @Override
      public void configure(HttpsParameters parameters) {
        SSLParameters ssl = tls.getDefaultSSLParameters();
        ssl.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        ssl.setNeedClientAuth(false);
        parameters.setSSLParameters(ssl);
      }
    });
    // a 404, 405 or 413 is answered before the body is read: EarlyAnswers makes it reach the training code
    https.createContext("/", this::serve).getFilters().add(new EarlyAnswers());
    executor = executor();
    https.setExecutor(executor);
    https.start();
    server = https;
    LOG.info("Serving TrainJob status updates on port {} over TLS ({} updates/s per TrainJob, burst {})", port(),
        settings.qps(), settings.burst());
  }

  /** The port listened on (the chosen one when the address asked for port 0). */
  public int port() {
    HttpsServer running = server;
    if (running == null) {
      throw new IllegalStateException("not started");
    }
    return running.getAddress().getPort();
  }

  public boolean isServing() {
    return server != null;
  }

  @Override
  public synchronized void close() {
    HttpsServer running = server;
    server = null;
    if (running != null) {
      running.stop(1);
    }
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      Answer answer = answer(exchange);
      answered.accept(answer.code());
      LOG.debug("{} {} from {}: {}", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
          exchange.getRemoteAddress(), answer.code());
      answer.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
      exchange.getResponseHeaders().set("Content-Type", JSON_TYPE);
      byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(answer.code(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } catch (RuntimeException e) {
      LOG.error("Failed to answer {} {}", exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), e);
    }
  }

  private Answer answer(HttpExchange exchange) throws IOException {
    Matcher path = STATUS_PATH.matcher(exchange.getRequestURI().getRawPath());
    if (!path.matches()) {
      return Answer.failure(404, "NotFound", "Not found");
    }
    if (!"POST".equals(exchange.getRequestMethod())) {
      return Answer.failure(405, "MethodNotAllowed", "Method not allowed: only POST").withHeader("Allow", "POST");
    }
    String namespace = path.group(1);
    String name = path.group(2);
    byte[] body = readBounded(exchange);
    if (body == null) {
      return Answer.failure(413, "RequestEntityTooLarge", "Payload too large").withHeader("Connection", "close");
    }
    Verdict verdict;
    try {
      verdict = authenticator.verify(BearerToken.of(exchange.getRequestHeaders().getFirst("Authorization")),
          namespace, name);
    } catch (IllegalStateException e) {
      LOG.warn("Cannot verify tokens for TrainJob {}/{}: {}", namespace, name, e.getMessage());
      return Answer.failure(500, "InternalError", "Internal error");
    }
    switch (verdict.outcome()) {
      case UNAUTHENTICATED:
        LOG.debug("Refused an update of TrainJob {}/{}: {}", namespace, name, verdict.reason());
        return Answer.failure(401, "Unauthorized", "Unauthorized");
      case FORBIDDEN:
        LOG.debug("Refused an update of TrainJob {}/{}: {}", namespace, name, verdict.reason());
        return Answer.failure(403, "Forbidden", "Forbidden");
      default:
        break;
    }
    Duration wait = limiter.acquire(namespace + "/" + name);
    if (!wait.isZero()) {
      long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
      return Answer.tooManyRequests("Too many requests: TrainJob " + namespace + "/" + name + " may update its "
          + "status " + settings.qps() + " times per second (" + settings.burst() + " at once); retry after "
          + seconds + "s", seconds);
    }
    UpdateTrainJobStatusRequest request;
    try {
      request = normalised(json.readValue(body, UpdateTrainJobStatusRequest.class));
    } catch (IOException | DateTimeParseException e) {
      LOG.debug("Invalid update of TrainJob {}/{}: {}", namespace, name, e.getMessage());
      return Answer.failure(422, "Invalid", "Invalid payload");
    }
    if (request == null || request.getTrainerStatus() == null) {
      return Answer.ok(json.writeValueAsString(request == null ? new UpdateTrainJobStatusRequest() : request));
    }
    TrainerStatusApplier.Outcome outcome;
    try {
      outcome = applier.apply(namespace, name, request.getTrainerStatus());
    } catch (IOException e) {
      LOG.error("Failed to update TrainJob {}/{}: {}", namespace, name, e.getMessage());
      return Answer.failure(500, "InternalError", "Internal error");
    }
    if (outcome.code() == 200) {
      String uid = trainJobs.get(namespace, name).map(trainJob -> trainJob.getMetadata().getUid()).orElse("");
      history.record(namespace, name, uid == null ? "" : uid, request.getTrainerStatus().getMetrics(),
          System.currentTimeMillis());
      return Answer.ok(json.writeValueAsString(request));
    }
    if (outcome.code() == 404) {
      return Answer.failure(404, "NotFound", "Train job not found");
    }
    if (outcome.code() == 422 || outcome.code() == 400) {
      return Answer.failure(422, "Invalid", outcome.message().isEmpty() ? "Validation failed" : outcome.message());
    }
    LOG.error("Failed to update TrainJob {}/{}: the API server answered {} {}", namespace, name, outcome.code(),
        outcome.message());
    return Answer.failure(500, "InternalError", "Internal error");
  }

  /** {@code lastUpdatedTime} as upstream stores it: RFC 3339 in, seconds in UTC out. */
  private static UpdateTrainJobStatusRequest normalised(UpdateTrainJobStatusRequest request) {
    TrainerStatus status = request == null ? null : request.getTrainerStatus();
    if (status != null && status.getLastUpdatedTime() != null) {
      Instant time = OffsetDateTime.parse(status.getLastUpdatedTime()).toInstant().truncatedTo(ChronoUnit.SECONDS);
      status.setLastUpdatedTime(time.toString());
    }
    return request;
  }

  /**
   * The body, or null if it is longer than {@link #MAX_BODY_BYTES}: refused on its Content-Length before a byte is
   * read, else (chunked) once the limit is passed. What is left is thrown away after the answer ({@link EarlyAnswers}),
   * and the connection closed.
   */
  private static byte[] readBounded(HttpExchange exchange) throws IOException {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.trim()) > MAX_BODY_BYTES) {
          return null;
        }
      } catch (NumberFormatException e) {
        // the bounded read decides
      }
    }
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
      return body.length > MAX_BODY_BYTES ? null : body;
    }
  }

  private static ThreadPoolExecutor executor() {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
        runnable -> {
          Thread thread = new Thread(runnable, "status-server-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** An HTTP answer: code, extra headers, and a JSON body (a {@code Status} for failures). */
  private record Answer(int code, Map<String, String> headers, String body) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static Answer ok(String body) {
      return new Answer(200, Map.of(), body);
    }

    static Answer failure(int code, String reason, String message) {
      return new Answer(code, Map.of(), render(status(code, reason, message)));
    }

    /** kube-apiserver's 429: {@code Retry-After} and {@code details.retryAfterSeconds}. */
    static Answer tooManyRequests(String message, long retryAfterSeconds) {
      ObjectNode status = status(429, "TooManyRequests", message);
      status.putObject("details").put("retryAfterSeconds", retryAfterSeconds);
      return new Answer(429, Map.of("Retry-After", Long.toString(retryAfterSeconds)), render(status));
    }

    Answer withHeader(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Answer(code, more, body);
    }

    private static ObjectNode status(int code, String reason, String message) {
      ObjectNode status = MAPPER.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
      status.putObject("metadata");
      return status.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
    }

    private static String render(ObjectNode status) {
      try {
        return MAPPER.writeValueAsString(status);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
