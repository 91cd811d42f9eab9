package io.kftrainer.plugins.flux;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;

/** Inputs from {@code src/test/resources} and views of built objects, shared by this module's tests. */
final class FluxFixtures {

  /** RFC 7748, section 6.1: Alice's X25519 secret key, and her public key as the RFC gives it. */
  static final byte[] RFC7748_SECRET =
      HexFormat.of().parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
  static final byte[] RFC7748_PUBLIC =
      HexFormat.of().parseHex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
  /** The same keys in Z85, encoded by an independent implementation of ZeroMQ RFC 32. */
  static final String RFC7748_SECRET_Z85 = "Cl.%(A#p:4jqL+Nql<!5?+kXU(+F]rV3l8w9L0ZJ";
  static final String RFC7748_PUBLIC_Z85 = "G=]<>I7>&bBC>O5V{aj/4zK}kco8}o(.HIuS*=:#";

  private FluxFixtures() {
  }

  /** A plugin whose certificates are always RFC 7748's keys, so that golden files are stable. */
  static FluxPlugin fixedKeyPlugin() {
    return new FluxPlugin(() -> CurveCertificate.of(RFC7748_SECRET));
  }

  static RuntimeSource runtime(String path) {
    return Fixtures.runtime(Fixtures.resource(path));
  }

  static RuntimeSource runtime(String path, Consumer<RuntimeSource> change) {
    RuntimeSource runtime = runtime(path);
    change.accept(runtime);
    return runtime;
  }

  static TrainJob trainJob(String path) {
    return Fixtures.trainJob(Fixtures.resource(path));
  }

  static TrainJob trainJob(String path, Consumer<TrainJob> change) {
    TrainJob trainJob = trainJob(path);
    change.accept(trainJob);
    return trainJob;
  }

  static ConfigMap configMap(List<HasMetadata> objects) {
    return only(objects, ConfigMap.class);
  }

  static Secret secret(List<HasMetadata> objects) {
    return only(objects, Secret.class);
  }

  static JobSet jobSet(List<HasMetadata> objects) {
    return only(objects, JobSet.class);
  }

  /** The text of {@code curve.cert} in the Secret. */
  static String certificate(Secret secret) {
    return new String(Base64.getDecoder().decode(secret.getData().get(CurveSecret.KEY)), StandardCharsets.UTF_8);
  }

  private static <T> T only(List<HasMetadata> objects, Class<T> type) {
    List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
    if (found.size() != 1) {
      throw new AssertionError("expected one " + type.getSimpleName() + " in " + objects);
    }
    return found.get(0);
  }
}
