package io.kftrainer.benchmarks;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.webhook.HttpServerNoDelay;
import io.kftrainer.apiserver.CaBundleTrust;
import io.kftrainer.webhook.cert.CertificateAuthority;
import io.kftrainer.webhook.cert.CertificateIssuer;
import io.kftrainer.webhook.cert.GeneratedCertificates;
import io.kftrainer.webhook.cert.MountedCertificates;
import io.kftrainer.webhook.cert.ServingCertificate;
import io.kftrainer.webhook.cert.StoredCertificates;
import io.kftrainer.operator.plugins.OperatorPlugins;
import io.kftrainer.runtime.RuntimeCatalog;
import io.kftrainer.webhook.WebhookPaths;
import io.kftrainer.webhook.WebhookServer;
import io.kftrainer.testkit.Fixtures;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Admission latency of the real {@link WebhookServer}: TrainJob AdmissionReviews POSTed over HTTPS on loopback to
 * the validating webhook (the plugins' validations over the shipped runtimes), as kube-apiserver sends them: on
 * kept-alive connections, from a client with {@code TCP_NODELAY} (Go's default, and the JDK HTTP client's). Prints
 * p50 / p99 / max of N sequential calls, then of N calls from C concurrent clients.
 *
 * <pre>java -cp trainer-benchmarks/target/benchmarks.jar io.kftrainer.benchmarks.AdmissionLatency [N] [C]</pre>
 *
 * <p>{@code -Dsun.net.httpserver.nodelay=false} shows the server as it was before {@link HttpServerNoDelay}.
 */
public final class AdmissionLatency {

  private static final String SERVICE = "trainer-controller-manager";
  private static final String NAMESPACE = "kubeflow-system";
  private static final int WARM_UP = 1_000;

  private AdmissionLatency() {
  }

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int clients = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    KubernetesSerialization serialization = Fixtures.serialization();
    Path certificates = Files.createTempDirectory("admission-latency");
    CertificateIssuer issuer = new CertificateIssuer(Clock.systemUTC());
    CertificateAuthority ca = issuer.newAuthority();
    List<String> dnsNames = GeneratedCertificates.dnsNames(SERVICE, NAMESPACE);
    ServingCertificate serving = issuer.issue(ca, dnsNames, List.of(ca.certificate()));
    Files.writeString(certificates.resolve(StoredCertificates.TLS_CRT), serving.certificatePem());
    Files.writeString(certificates.resolve(StoredCertificates.TLS_KEY), serving.keyPem());
    Files.writeString(certificates.resolve(StoredCertificates.CA_CRT), serving.caBundlePem());

    WebhookServer server = new WebhookServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        new MountedCertificates(certificates, Duration.ofHours(1)),
        WebhookPaths.handlers(OperatorPlugins.load(certificates.resolve("no-plugins")).runner(),
            RuntimeCatalog.withShipped(List.of()), ObjectLookup.empty(), Clock.systemUTC(), serialization),
        serialization);
    server.start();
    try {
      URI uri = URI.create("https://127.0.0.1:" + server.port() + WebhookPaths.VALIDATE_TRAINJOB);
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
          .sslContext(CaBundleTrust.sslContext(Base64.getEncoder().encodeToString(serving.caBundleBytes()), dnsNames.get(dnsNames.size() - 1))).build();
      HttpRequest request = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(review(serialization))).build();
      System.out.printf(Locale.ROOT, "Admission latency, TrainJob validation over HTTPS on loopback "
          + "(sun.net.httpserver.nodelay=%s, %d cores, Java %s)%n", System.getProperty(HttpServerNoDelay.PROPERTY),
          Runtime.getRuntime().availableProcessors(), Runtime.version());
      sequential(client, request, WARM_UP);
      report("sequential", sequential(client, request, calls));
      report(clients + " concurrent", concurrent(client, request, calls, clients));
    } finally {
      server.stop();
    }
  }

  private static String review(KubernetesSerialization serialization) {
    TrainJob trainJob = Fixtures.trainJob("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
        + "metadata: {name: job, namespace: default}\n"
        + "spec: {runtimeRef: {name: torch-distributed}, trainer: {numNodes: 2}}\n");
    AdmissionRequest request = new AdmissionRequest();
    request.setUid(UUID.randomUUID().toString());
    request.setKind(new GroupVersionKind("trainer.kubeflow.org", "TrainJob", "v1alpha1"));
    request.setResource(new GroupVersionResource("trainer.kubeflow.org", "trainjobs", "v1alpha1"));
    request.setOperation("CREATE");
    request.setNamespace("default");
    request.setName("job");
    request.setObject(trainJob);
    AdmissionReview review = new AdmissionReview();
    review.setApiVersion("admission.k8s.io/v1");
    review.setKind("AdmissionReview");
    review.setRequest(request);
    return serialization.asJson(review);
  }

  private static long[] sequential(HttpClient client, HttpRequest request, int calls) throws Exception {
    long[] nanos = new long[calls];
    for (int i = 0; i < calls; i++) {
      nanos[i] = call(client, request);
    }
    return nanos;
  }

  private static long[] concurrent(HttpClient client, HttpRequest request, int calls, int clients) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<long[]>> parts = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        parts.add(pool.submit(() -> sequential(client, request, calls / clients)));
      }
      long[] all = new long[0];
      for (Future<long[]> part : parts) {
        long[] some = part.get();
        long[] joined = Arrays.copyOf(all, all.length + some.length);
        System.arraycopy(some, 0, joined, all.length, some.length);
        all = joined;
      }
      return all;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long call(HttpClient client, HttpRequest request) throws Exception {
    long start = System.nanoTime();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    long elapsed = System.nanoTime() - start;
    if (response.statusCode() != 200 || !response.body().contains("\"allowed\":true")) {
      throw new IllegalStateException("unexpected answer " + response.statusCode() + ": " + response.body());
    }
    return elapsed;
  }

  private static void report(String name, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(Locale.ROOT, "%-14s n=%5d  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms%n", name, sorted.length,
        millis(sorted, 0.50), millis(sorted, 0.99), sorted[sorted.length - 1] / 1e6);
  }

  private static double millis(long[] sorted, double quantile) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1e6;
  }
}
