package io.kftrainer.benchmarks;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.api.v1alpha1.TrainJobStatusEndpoint;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.webhook.cert.CertificateAuthority;
import io.kftrainer.webhook.cert.CertificateIssuer;
import io.kftrainer.webhook.cert.ServingCertificate;
import io.kftrainer.webhook.cert.SwappableKeyManager;
import io.kftrainer.statusserver.JwksTokenAuthenticator;
import io.kftrainer.statusserver.StatusServer;
import io.kftrainer.statusserver.TrainJobs;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The status server's cost per training-progress update, on this machine: the real {@link StatusServer} over HTTPS
 * on loopback, real ServiceAccount tokens verified against the JWKS, and a real server-side apply of
 * {@code status.trainerStatus} into the embedded API server (in this JVM, so its work is counted too). Every update
 * carries a new value, so each one is written.
 *
 * <ol>
 *   <li>latency: p50 / p99 / max of N sequential updates of one TrainJob;</li>
 *   <li>throughput: updates/s sustained for S seconds by C concurrent clients spread over J TrainJobs, with the
 *       per-TrainJob rate limit out of the way (what the server and API server can do);</li>
 *   <li>the same load with the default limit (5 updates/s per TrainJob, burst 10): how many are accepted and how many
 *       answered 429.</li>
 * </ol>
 *
 * <pre>java -cp trainer-benchmarks/target/benchmarks.jar io.kftrainer.benchmarks.StatusServerLatency [N] [C] [J] [S]</pre>
 */
public final class StatusServerLatency {

  private static final String NAMESPACE = "bench";
  private static final int WARM_UP = 500;

  private StatusServerLatency() {
  }

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int clients = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int trainJobs = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 10;
    try (EmbeddedApiServer api = EmbeddedApiServer.start(); KubernetesClient client = api.newClient()) {
      api.installCrds(StatusServerLatency.class.getClassLoader()
          .getResourceAsStream("META-INF/fabric8/trainjobs.trainer.kubeflow.org-v1.yml"));
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
          .build()).create();
      waitForDefaultServiceAccount(client);
      List<String> tokens = new ArrayList<>();
      for (int j = 0; j < trainJobs; j++) {
        tokens.add(createTrainJob(client, "job-" + j));
      }
      CertificateIssuer issuer = new CertificateIssuer(Clock.systemUTC());
      CertificateAuthority ca = issuer.newAuthority();
      ServingCertificate serving = issuer.issue(ca, List.of("status.bench.svc", "127.0.0.1"),
          List.of(ca.certificate()));
      SwappableKeyManager keys = new SwappableKeyManager();
      keys.swap(serving);
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(trusting(serving))
          .build();
      System.out.printf(Locale.ROOT, "Status server: an update over HTTPS on loopback, token verified, status "
          + "server-side applied (%d cores, Java %s)%n", Runtime.getRuntime().availableProcessors(),
          Runtime.version());
      try (StatusServer unlimited = start(keys, client, 1e9, 1_000_000)) {
        Update one = new Update(http, unlimited.port(), "job-0", tokens.get(0));
        for (int i = 0; i < WARM_UP; i++) {
          one.send();
        }
        long[] nanos = new long[calls];
        for (int i = 0; i < calls; i++) {
          nanos[i] = one.send();
        }
        report("sequential", nanos);
        sustained("sustained, no rate limit", http, unlimited.port(), tokens, clients, seconds);
      }
      try (StatusServer limited = start(keys, client, 5, 10)) {
        sustained("sustained, 5/s per TrainJob", http, limited.port(), tokens, clients, seconds);
      }
    }
  }

  private static StatusServer start(SwappableKeyManager keys, KubernetesClient client, double qps, int burst)
      throws Exception {
    StatusServer server = new StatusServer(new StatusServer.Settings(new InetSocketAddress("127.0.0.1", 0), qps,
        burst), keys.serverContext(), JwksTokenAuthenticator.discover(client), client, TrainJobs.none());
    server.start();
    return server;
  }

  private static void sustained(String name, HttpClient http, int port, List<String> tokens, int clients,
      int seconds) throws Exception {
    AtomicLong accepted = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    Instant end = Instant.now().plusSeconds(seconds);
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int first = c;
        running.add(pool.submit(() -> {
          int i = first;
          while (Instant.now().isBefore(end)) {
            int job = i++ % tokens.size();
            int code = new Update(http, port, "job-" + job, tokens.get(job)).code();
            (code == 200 ? accepted : refused).incrementAndGet();
          }
          return null;
        }));
      }
      for (Future<?> future : running) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.printf(Locale.ROOT, "%-28s %d clients over %d TrainJobs, %d s: %7.1f updates/s accepted, %7.1f/s "
        + "refused (429)%n", name, clients, tokens.size(), seconds, accepted.get() / (double) seconds,
        refused.get() / (double) seconds);
  }

  /** One TrainJob's updates, each with a new progress value. */
  private static final class Update {
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private final HttpClient http;
    private final URI uri;
    private final String token;

    Update(HttpClient http, int port, String trainJob, String token) {
      this.http = http;
      this.uri = URI.create("https://127.0.0.1:" + port + TrainJobStatusEndpoint.path(NAMESPACE, trainJob));
      this.token = token;
    }

    long send() throws Exception {
      long start = System.nanoTime();
      int code = code();
      long elapsed = System.nanoTime() - start;
      if (code != 200) {
        throw new IllegalStateException("unexpected answer " + code);
      }
      return elapsed;
    }

    int code() throws Exception {
      long n = SEQUENCE.incrementAndGet();
      String body = "{\"trainerStatus\": {\"progressPercentage\": " + (n % 101) + ", \"estimatedRemainingSeconds\": "
          + n % 1000 + ", \"metrics\": [{\"name\": \"loss\", \"value\": \"" + 1.0 / n + "\"}], "
          + "\"lastUpdatedTime\": \"" + Instant.now() + "\"}}";
      HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
  }

  private static String createTrainJob(KubernetesClient client, String name) {
    TrainJob trainJob = new TrainJob();
    trainJob.getMetadata().setName(name);
    trainJob.getMetadata().setNamespace(NAMESPACE);
    TrainJobSpec spec = new TrainJobSpec();
    spec.setRuntimeRef(new RuntimeRef().withName("torch-distributed"));
    trainJob.setSpec(spec);
    client.resource(trainJob).create();
    return client.serviceAccounts().inNamespace(NAMESPACE).withName("default").tokenRequest(new TokenRequestBuilder()
        .withNewSpec().withAudiences(TrainJobStatusEndpoint.audience(NAMESPACE, name)).endSpec().build())
        .getStatus().getToken();
  }

  private static void waitForDefaultServiceAccount(KubernetesClient client) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (client.serviceAccounts().inNamespace(NAMESPACE).withName("default").get() == null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no default ServiceAccount in namespace " + NAMESPACE);
      }
      Thread.sleep(10);
    }
  }

  private static SSLContext trusting(ServingCertificate serving) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setCertificateEntry("ca", serving.caBundle().get(0));
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  private static void report(String name, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(Locale.ROOT, "%-28s n=%5d  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms%n", name, sorted.length,
        millis(sorted, 0.50), millis(sorted, 0.99), sorted[sorted.length - 1] / 1e6);
  }

  private static double millis(long[] sorted, double quantile) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
  }
}
