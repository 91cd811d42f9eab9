package io.kftrainer.plugins.mpi;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Inputs from {@code src/test/resources} and views of built objects, shared by this module's tests. */
final class MpiFixtures {

  /** What the golden files show instead of generated key material. */
  static final String REDACTED = "<generated>";

  private MpiFixtures() {
  }

  static RuntimeSource runtime(String path) {
    return Fixtures.runtime(Fixtures.resource(path));
  }

  static TrainJob trainJob(String path) {
    return Fixtures.trainJob(Fixtures.resource(path));
  }

  static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  /** The objects with every Secret's data values replaced by {@value #REDACTED}, keys kept. */
  static List<HasMetadata> withKeysRedacted(List<HasMetadata> objects) {
    return objects.stream().map(o -> o instanceof Secret secret ? redacted(secret) : o).toList();
  }

  static Secret secret(List<HasMetadata> objects) {
    return only(objects, Secret.class);
  }

  static ConfigMap configMap(List<HasMetadata> objects) {
    return only(objects, ConfigMap.class);
  }

  static JobSet jobSet(List<HasMetadata> objects) {
    return only(objects, JobSet.class);
  }

  private static Secret redacted(Secret secret) {
    Map<String, String> data = new LinkedHashMap<>();
    secret.getData().keySet().forEach(key -> data.put(key, REDACTED));
    return new SecretBuilder(secret).withData(data).build();
  }

  private static <T> T only(List<HasMetadata> objects, Class<T> type) {
    List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
    if (found.size() != 1) {
      throw new AssertionError("expected one " + type.getSimpleName() + " among " + objects.size()
          + " objects, found " + found.size());
    }
    return found.get(0);
  }
}
