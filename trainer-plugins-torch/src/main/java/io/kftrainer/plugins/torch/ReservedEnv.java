package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Rejects a TrainJob whose {@code trainer.env} sets a variable this plugin owns. One error for the whole list, at
 * {@code spec.trainer.env}, naming the offending variables sorted and in Go's list format, as upstream does.
 */
final class ReservedEnv {

  private ReservedEnv() {
  }

  static Optional<FieldError> validate(List<EnvVar> env, boolean elastic) {
    if (env == null) {
      return Optional.empty();
    }
    Set<String> reserved = new HashSet<>(TorchEnv.RESERVED);
    if (elastic) {
      reserved.addAll(TorchEnv.RESERVED_ELASTIC);
    }
    TreeSet<String> found = new TreeSet<>();
    env.stream().map(EnvVar::getName).filter(reserved::contains).forEach(found::add);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(FieldError.invalid(FieldPath.of("spec", "trainer", "env"), env,
        "must not have reserved envs, invalid envs configured: [" + String.join(" ", found) + "]"));
  }
}
