package io.kftrainer.plugins.flux;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The Secret {@code <trainjob>-flux-curve} with the brokers' {@link CurveCertificate} as {@value #KEY}, and its
 * volume {@value #VOLUME_NAME} (owner read-only), which container {@code node} mounts at {@value #MOUNT_PATH};
 * the entrypoint copies the file into the Flux configuration.
 *
 * <p>Immutable and built once: a new key pair on every reconcile would split brokers that already started with
 * the old one, so the builder returns it only while it does not exist yet.
 */
final class CurveSecret {

  static final String VOLUME_NAME = "flux-curve";
  static final String MOUNT_PATH = "/curve";
  static final String KEY = "curve.cert";
  private static final String NAME_SUFFIX = "-flux-curve";
  private static final int DEFAULT_MODE = 0400;

  private CurveSecret() {
  }

  static String name(String trainJobName) {
    return trainJobName + NAME_SUFFIX;
  }

  static Secret build(String trainJobName, CurveCertificate certificate) {
    String cert = certificate.text(trainJobName);
    return new SecretBuilder()
        .withNewMetadata().withName(name(trainJobName)).endMetadata()
        .withType("Opaque")
        .withImmutable(true)
        .withData(Map.of(KEY, Base64.getEncoder().encodeToString(cert.getBytes(StandardCharsets.UTF_8))))
        .build();
  }

  static Volume volume(String trainJobName) {
    return new VolumeBuilder()
        .withName(VOLUME_NAME)
        .withNewSecret().withSecretName(name(trainJobName)).withDefaultMode(DEFAULT_MODE).endSecret()
        .build();
  }
}
