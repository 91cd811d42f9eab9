package io.kftrainer.operator.app;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Upstream's {@code TrainJobStatus} feature gate as the operator applies it: the section of the
 * {@value #PLUGIN} plugin it derives from its configuration (upstream hands the plugin its whole configuration), and
 * the status server ({@link StatusServerComponent}).
 *
 * <p>The training code reaches the status server at {@code https://<webhook service>.<operator namespace>.svc:<port>}
 * (upstream's URL), or at the bind address itself when the operator listens on one address only ({@code local}
 * mode's 127.0.0.1, which the webhook certificate then names too).
 */
public final class TrainJobStatusFeature {

  /** The plugin's name, as upstream's; the operator never names the plugin's class. */
  public static final String PLUGIN = "TrainJobStatus";

  private TrainJobStatusFeature() {
  }

  /** The plugin sections the operator fills in: the {@value #PLUGIN} plugin's. */
  public static Map<String, Map<String, Object>> pluginSections(OperatorConfig config) {
    Map<String, Object> section = new LinkedHashMap<>();
    section.put("enabled", config.trainJobStatusEnabled());
    section.put("serverUrl", serverUrl(config));
    section.put("caSecretNamespace", config.operatorNamespace());
    section.put("caSecretName", config.webhook().secretName());
    return Map.of(PLUGIN, section);
  }

  /** Where training code reaches the status server: scheme, host and port. */
  public static String serverUrl(OperatorConfig config) {
    String bind = config.bindAddress();
    boolean wildcard = bind.equals("0.0.0.0") || bind.equals("::");
    String host = wildcard ? config.webhook().serviceName() + "." + config.operatorNamespace() + ".svc"
        : bind.contains(":") ? "[" + bind + "]" : bind;
    return "https://" + host + ":" + config.statusServerPort();
  }
}
