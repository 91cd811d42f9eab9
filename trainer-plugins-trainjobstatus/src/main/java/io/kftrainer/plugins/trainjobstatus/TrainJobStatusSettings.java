package io.kftrainer.plugins.trainjobstatus;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * The plugin's section of the plugin configuration. The operator fills it from its own configuration (the
 * {@code TrainJobStatus} feature gate, the status server's port, the webhook Service and Secret), the way upstream
 * hands its plugins the whole operator configuration; an administrator's {@code --plugin-config} section overrides
 * single fields.
 *
 * @param enabled whether the plugin contributes anything: upstream registers it only with the feature gate on
 * @param serverUrl the status server's base URL ({@code https://host:port}, no path), as the training code reaches
 *     it: upstream's {@code https://<webhook service>.<operator namespace>.svc:<status server port>}
 * @param caSecretNamespace the namespace of the webhook certificate Secret whose {@code ca.crt} the TrainJob's
 *     {@code <trainjob>-tls-config} ConfigMap copies (the operator namespace)
 * @param caSecretName that Secret's name (upstream's {@code certManagement.webhookSecretName})
 */
public record TrainJobStatusSettings(Boolean enabled, String serverUrl, String caSecretNamespace,
    String caSecretName) {

  public static final String DEFAULT_SERVER_URL =
      "https://kubeflow-trainer-controller-manager.kubeflow-system.svc:10443";
  public static final String DEFAULT_CA_SECRET_NAMESPACE = "kubeflow-system";
  public static final String DEFAULT_CA_SECRET_NAME = "kubeflow-trainer-webhook-cert";

  public TrainJobStatusSettings {
    enabled = enabled != null && enabled;
    serverUrl = serverUrl == null ? DEFAULT_SERVER_URL : stripTrailingSlash(serverUrl);
    caSecretNamespace = caSecretNamespace == null ? DEFAULT_CA_SECRET_NAMESPACE : caSecretNamespace;
    caSecretName = caSecretName == null ? DEFAULT_CA_SECRET_NAME : caSecretName;
    requireHttpsBase(serverUrl);
    if (caSecretNamespace.isBlank()) {
      throw new IllegalArgumentException("caSecretNamespace must not be empty");
    }
    if (caSecretName.isBlank()) {
      throw new IllegalArgumentException("caSecretName must not be empty");
    }
  }

  /** Upstream's defaults, with the plugin off. */
  public static TrainJobStatusSettings defaults() {
    return new TrainJobStatusSettings(null, null, null, null);
  }

  public boolean isEnabled() {
    return enabled;
  }

  private static String stripTrailingSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static void requireHttpsBase(String url) {
    try {
      URI uri = new URI(url);
      if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new IllegalArgumentException("serverUrl must be an https URL with a host, was '" + url + "'");
      }
      if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() || uri.getRawQuery() != null) {
        throw new IllegalArgumentException("serverUrl must have no path or query (the plugin adds the TrainJob's "
            + "path), was '" + url + "'");
      }
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("serverUrl is not a URL: " + e.getMessage());
    }
  }
}
