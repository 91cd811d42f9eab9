package io.kftrainer.plugins.mpi;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Secret {@code <trainjob>-mpi-ssh-auth} with the SSH key pair the launcher uses to start processes on the
 * nodes, and its volume: mounted in every launcher and node pod as {@code id_rsa}, {@code id_rsa.pub} and
 * {@code authorized_keys}, so any pod can reach any other.
 *
 * <p>The Secret is immutable and built once: a new key pair on every reconcile would restart nothing but would break
 * pods that already read the old one, so the builder only returns it while it does not exist yet.
 */
final class SshAuthSecret {

  static final String VOLUME_NAME = "mpi-ssh-auth";
  static final String TYPE = "kubernetes.io/ssh-auth";
  /** Key of the private key, fixed by Secret type {@value #TYPE}. */
  static final String PRIVATE_KEY = "ssh-privatekey";
  static final String PUBLIC_KEY = "ssh-publickey";
  private static final String NAME_SUFFIX = "-mpi-ssh-auth";
  private static final String PRIVATE_KEY_FILE = "id_rsa";
  private static final String PUBLIC_KEY_FILE = PRIVATE_KEY_FILE + ".pub";
  private static final String AUTHORIZED_KEYS_FILE = "authorized_keys";
  /** Owner read-only, for any item without its own mode. */
  private static final int DEFAULT_MODE = 0400;
  private static final int PRIVATE_KEY_MODE = 0640;
  private static final int PUBLIC_KEY_MODE = 0644;

  private SshAuthSecret() {
  }

  static String name(String trainJobName) {
    return trainJobName + NAME_SUFFIX;
  }

  static Secret build(String trainJobName, SshKeyPair keys) {
    Base64.Encoder base64 = Base64.getEncoder();
    Map<String, String> data = new LinkedHashMap<>();
    data.put(PRIVATE_KEY, base64.encodeToString(keys.privateKeyPem()));
    data.put(PUBLIC_KEY, base64.encodeToString(keys.authorizedKey()));
    return new SecretBuilder()
        .withNewMetadata().withName(name(trainJobName)).endMetadata()
        .withType(TYPE)
        .withImmutable(true)
        .withData(data)
        .build();
  }

  /** The volume of launcher and node pods. */
  static Volume volume(String trainJobName) {
    return new VolumeBuilder()
        .withName(VOLUME_NAME)
        .withNewSecret()
        .withSecretName(name(trainJobName))
        .withDefaultMode(DEFAULT_MODE)
        .addNewItem().withKey(PRIVATE_KEY).withPath(PRIVATE_KEY_FILE).withMode(PRIVATE_KEY_MODE).endItem()
        .addNewItem().withKey(PUBLIC_KEY).withPath(PUBLIC_KEY_FILE).withMode(PUBLIC_KEY_MODE).endItem()
        .addNewItem().withKey(PUBLIC_KEY).withPath(AUTHORIZED_KEYS_FILE).withMode(PUBLIC_KEY_MODE).endItem()
        .endSecret()
        .build();
  }

  static VolumeMount mount(String mountPath) {
    return new VolumeMountBuilder().withName(VOLUME_NAME).withMountPath(mountPath).build();
  }
}
