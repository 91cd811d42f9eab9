package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.kftrainer.webhook.cert.CertificateAuthority;
import io.kftrainer.webhook.cert.CertificateIssuer;
import io.kftrainer.webhook.cert.ServingCertificate;
import io.kftrainer.webhook.cert.SwappableKeyManager;
import io.kftrainer.webhook.cert.WebhookCertificates;
import io.kftrainer.testkit.Fixtures;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operator's {@link WebhookServer} with test handlers, on 127.0.0.1 and an ephemeral port, serving a
 * certificate for {@value #SERVICE}.{@value #NAMESPACE}.svc from a CA of its own; counts the calls.
 */
final class TestingWebhookServer implements AutoCloseable {

  static final String NAMESPACE = "hooks-ns";
  static final String SERVICE = "hooks";

  private final WebhookServer server;
  private final String caBundle;
  private final AtomicInteger calls = new AtomicInteger();

  TestingWebhookServer(Map<String, AdmissionHandler> handlers) throws Exception {
    CertificateIssuer issuer = new CertificateIssuer(Clock.systemUTC());
    CertificateAuthority ca = issuer.newAuthority();
    ServingCertificate serving = issuer.issue(ca, List.of(SERVICE + "." + NAMESPACE + ".svc"),
        List.of(ca.certificate()));
    this.caBundle = Base64.getEncoder().encodeToString(serving.caBundleBytes());
    SwappableKeyManager keyManager = new SwappableKeyManager();
    keyManager.swap(serving);
    Map<String, AdmissionHandler> counted = new java.util.HashMap<>();
    handlers.forEach((path, handler) -> counted.put(path, request -> {
      calls.incrementAndGet();
      return handler.admit(request);
    }));
    this.server = new WebhookServer(new InetSocketAddress("127.0.0.1", 0), new FixedCertificates(keyManager),
        counted, Fixtures.serialization());
    server.start();
  }

  /** A CA bundle of another CA than the server's. */
  static String otherCaBundle() {
    CertificateIssuer issuer = new CertificateIssuer(Clock.systemUTC());
    CertificateAuthority other = issuer.newAuthority();
    ServingCertificate unrelated = issuer.issue(other, List.of("x.y.svc"), List.of(other.certificate()));
    return Base64.getEncoder().encodeToString(unrelated.caBundleBytes());
  }

  String caBundle() {
    return caBundle;
  }

  InetSocketAddress address() {
    return new InetSocketAddress("127.0.0.1", server.port());
  }

  int calls() {
    return calls.get();
  }

  @Override
  public void close() {
    server.stop();
  }

  static AdmissionResponse allowed() {
    AdmissionResponse response = new AdmissionResponse();
    response.setAllowed(true);
    return response;
  }

  private record FixedCertificates(SwappableKeyManager keyManager) implements WebhookCertificates {

    @Override
    public void start() {
    }

    @Override
    public void stop() {
    }

    @Override
    public String description() {
      return "test certificate";
    }
  }
}
