package io.kftrainer.webhook.cert;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;

/** The two webhook configurations of {@code manifests/base}, installed on a test API server and read back. */
public final class WebhookConfigurations {

  public static final String NAMESPACE = "kubeflow-system";
  public static final String SERVICE = "kubeflow-trainer-controller-manager";
  public static final String SECRET = "kubeflow-trainer-webhook-cert";
  /** The name the API server calls the webhook Service by, as in the serving certificate. */
  public static final String SERVICE_HOST = SERVICE + "." + NAMESPACE + ".svc";

  private WebhookConfigurations() {
  }

  /** Creates both configurations as the manifests define them (without caBundle). */
  public static void install(KubernetesClient client) {
    for (String file : List.of("validating-webhook-configuration.yaml", "mutating-webhook-configuration.yaml")) {
      Path path = Path.of("../manifests/base").resolve(file);
      try (InputStream in = Files.newInputStream(path)) {
        for (HasMetadata object : client.load(in).items()) {
          client.resource(object).create();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  public static ValidatingWebhookConfiguration validating(KubernetesClient client) {
    return client.admissionRegistration().v1().validatingWebhookConfigurations()
        .withName(CaBundleInjector.VALIDATING_CONFIGURATION).get();
  }

  public static MutatingWebhookConfiguration mutating(KubernetesClient client) {
    return client.admissionRegistration().v1().mutatingWebhookConfigurations()
        .withName(CaBundleInjector.MUTATING_CONFIGURATION).get();
  }

  /** The decoded {@code caBundle} of every webhook of both configurations, validating ones first. */
  public static List<String> caBundles(KubernetesClient client) {
    return Stream.concat(
            validating(client).getWebhooks().stream().map(w -> w.getClientConfig().getCaBundle()),
            mutating(client).getWebhooks().stream().map(w -> w.getClientConfig().getCaBundle()))
        .map(bundle -> bundle == null ? null : new String(Base64.getDecoder().decode(bundle)))
        .toList();
  }
}
