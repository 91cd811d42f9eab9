package io.kftrainer.plugins.trainjobstatus;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatusEndpoint;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.Configurable;
import io.kftrainer.framework.spi.EnforcePodSpec;
import io.kftrainer.framework.spi.Plugin;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Lets the training code report its progress (upstream's {@code TrainJobStatus} plugin, alpha, behind the feature
 * gate of the same name): every container of the trainer pod set learns where the operator's status server is, how
 * to trust it and how to prove it belongs to this TrainJob.
 *
 * <ul>
 *   <li>{@link #enforcePodSpec}: env {@value #ENV_SERVER_URL} (the full URL of the TrainJob's status endpoint),
 *       {@value #ENV_CA_CERT} and {@value #ENV_TOKEN} (file paths), and a projected volume {@value #VOLUME} mounted
 *       read-only at {@value #MOUNT_PATH}: a ServiceAccount token whose audience is the TrainJob's status endpoint
 *       ({@link TrainJobStatusEndpoint#audience}), valid {@value #TOKEN_EXPIRATION_SECONDS} s and renewed by the
 *       kubelet, and the CA certificate from the ConfigMap below;</li>
 *   <li>{@link #build}: ConfigMap {@code <trainjob>-tls-config} with key {@value #CA_CERT_KEY}, copied from the
 *       webhook certificate Secret (the status server is served with the webhook's certificate). Rebuilt on every
 *       reconcile, so a rotated CA reaches running TrainJobs.</li>
 * </ul>
 *
 * <p>Does nothing unless {@link TrainJobStatusSettings#enabled()}. A missing Secret or key fails the TrainJob's
 * reconcile with upstream's message, and it is retried.
 */
@AutoService(Plugin.class)
public final class TrainJobStatusPlugin implements EnforcePodSpec, ComponentBuilder,
    Configurable<TrainJobStatusSettings> {

  public static final String NAME = "TrainJobStatus";
  public static final String ENV_SERVER_URL = "KUBEFLOW_TRAINER_SERVER_URL";
  public static final String ENV_CA_CERT = "KUBEFLOW_TRAINER_SERVER_CA_CERT";
  public static final String ENV_TOKEN = "KUBEFLOW_TRAINER_SERVER_TOKEN";
  public static final String VOLUME = "kubeflow-trainer-token";
  public static final String MOUNT_PATH = "/var/run/secrets/kubeflow/trainer";
  public static final String CA_CERT_KEY = "ca.crt";
  public static final String TOKEN_FILE = "token";
  public static final long TOKEN_EXPIRATION_SECONDS = 3600;
  static final String CONFIG_MAP_SUFFIX = "-tls-config";

  private volatile TrainJobStatusSettings settings = TrainJobStatusSettings.defaults();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 250;
  }

  @Override
  public Class<TrainJobStatusSettings> configType() {
    return TrainJobStatusSettings.class;
  }

  @Override
  public void configure(TrainJobStatusSettings config) {
    this.settings = Objects.requireNonNull(config, "config");
  }

  /** The ConfigMap holding the status server's CA certificate for {@code trainJobName}. */
  public static String configMapName(String trainJobName) {
    return trainJobName + CONFIG_MAP_SUFFIX;
  }

  @Override
  public void enforcePodSpec(BuildContext context) {
    if (!settings.isEnabled()) {
      return;
    }
    TrainJob trainJob = context.trainJob();
    String namespace = trainJob.getMetadata().getNamespace();
    String name = trainJob.getMetadata().getName();
    List<EnvVar> env = List.of(
        env(ENV_SERVER_URL, settings.serverUrl() + TrainJobStatusEndpoint.path(namespace, name)),
        env(ENV_CA_CERT, MOUNT_PATH + "/" + CA_CERT_KEY),
        env(ENV_TOKEN, MOUNT_PATH + "/" + TOKEN_FILE));
    VolumeMount mount = new VolumeMountBuilder().withName(VOLUME).withMountPath(MOUNT_PATH).withReadOnly(true)
        .build();
    Volume volume = volume(namespace, name);
    context.info().updateTrainerPodSets(podSet -> podSet
        .withEveryContainer(container -> container.withEnvUpserted(env).withVolumeMountUpserted(mount))
        .withVolumeUpserted(volume));
  }

  @Override
  public List<HasMetadata> build(BuildContext context) {
    if (!settings.isEnabled()) {
      return List.of();
    }
    TrainJob trainJob = context.trainJob();
    String secretName = settings.caSecretNamespace() + "/" + settings.caSecretName();
    Secret secret = context.cluster().get(Secret.class, settings.caSecretNamespace(), settings.caSecretName())
        .orElseThrow(() -> new IllegalStateException("failed to look up status server tls secret: Secret "
            + secretName + " not found"));
    String caCert = caCert(secret);
    if (caCert.isEmpty()) {
      throw new IllegalStateException("failed to find status server " + CA_CERT_KEY + " in tls secret "
          + secretName);
    }
    ConfigMap configMap = new ConfigMapBuilder()
        .withNewMetadata().withName(configMapName(trainJob.getMetadata().getName())).endMetadata()
        .withData(Map.of(CA_CERT_KEY, caCert))
        .build();
    return List.of(configMap);
  }

  private static Volume volume(String namespace, String trainJobName) {
    return new VolumeBuilder().withName(VOLUME)
        .withNewProjected()
        .addNewSource()
        .withNewServiceAccountToken()
        .withAudience(TrainJobStatusEndpoint.audience(namespace, trainJobName))
        .withExpirationSeconds(TOKEN_EXPIRATION_SECONDS)
        .withPath(TOKEN_FILE)
        .endServiceAccountToken()
        .endSource()
        .addNewSource()
        .withNewConfigMap()
        .withName(configMapName(trainJobName))
        .addNewItem().withKey(CA_CERT_KEY).withPath(CA_CERT_KEY).endItem()
        .endConfigMap()
        .endSource()
        .endProjected()
        .build();
  }

  /** {@code ca.crt} of the Secret, from {@code data} (base64, as the API returns it) or {@code stringData}. */
  private static String caCert(Secret secret) {
    if (secret.getData() != null && secret.getData().get(CA_CERT_KEY) != null) {
      return new String(Base64.getDecoder().decode(secret.getData().get(CA_CERT_KEY)), StandardCharsets.UTF_8);
    }
    if (secret.getStringData() != null && secret.getStringData().get(CA_CERT_KEY) != null) {
      return secret.getStringData().get(CA_CERT_KEY);
    }
    return "";
  }

  private static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }
}
