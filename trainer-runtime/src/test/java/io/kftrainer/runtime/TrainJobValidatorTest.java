package io.kftrainer.runtime;

import io.kftrainer.api.TrainJobDefaults;
import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.testkit.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The runtime checks of admission; the plugins' own validations are tested with the plugins. */
class TrainJobValidatorTest {

  private static final String DEPRECATION = "Referenced ClusterTrainingRuntime \"old\" is deprecated and will be "
      + "removed in a future release of Kubeflow Trainer. See runtime deprecation policy: "
      + "https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html#runtime-deprecation-policy";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a supported runtime that exists is valid", "current", "ClusterTrainingRuntime",
            ValidationResult.ok()),
        Arguments.of("a deprecated ClusterTrainingRuntime gives upstream's warning", "old", "ClusterTrainingRuntime",
            ValidationResult.warning(DEPRECATION)),
        Arguments.of("a deprecated TrainingRuntime gives no warning, as upstream", "old", "TrainingRuntime",
            ValidationResult.ok()),
        Arguments.of("a missing runtime is an error of spec.runtimeRef", "gone", "ClusterTrainingRuntime",
            ValidationResult.of(FieldError.notFound(FieldPath.of("spec", "runtimeRef"), "gone",
                "specified clusterTrainingRuntime must be created before the TrainJob is created"))),
        Arguments.of("an unsupported kind is an error of spec.runtimeRef", "current", "Runtime",
            ValidationResult.of(FieldError.notSupported(FieldPath.of("spec", "runtimeRef"), null,
                "unsupported runtime: Runtime.trainer.kubeflow.org"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validate(String name, String runtime, String kind, ValidationResult expected) {
    RuntimeCatalog catalog = new RuntimeCatalog(List.of(
        runtime("ClusterTrainingRuntime", "current", false),
        runtime("ClusterTrainingRuntime", "old", true),
        runtime("TrainingRuntime", "old", true)));
    TrainJobValidator validator = new TrainJobValidator(catalog, new PhaseRunner(List.of()));

    assertThat(validator.validate(null, trainJob(runtime, kind), ObjectLookup.empty())).isEqualTo(expected);
  }

  private static RuntimeSource runtime(String kind, String name, boolean deprecated) {
    return Fixtures.runtime("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: %s
        metadata:
          name: %s
          namespace: %s
          labels: {trainer.kubeflow.org/support: %s}
        spec:
          mlPolicy: {numNodes: 1}
          template: {spec: {replicatedJobs: []}}
        """.formatted(kind, name, kind.equals("TrainingRuntime") ? "default" : "null",
        deprecated ? "deprecated" : "supported"));
  }

  private static TrainJob trainJob(String runtime, String kind) {
    return TrainJobDefaults.defaulted(Fixtures.trainJob("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: job, namespace: default}
        spec:
          runtimeRef: {name: %s, kind: %s}
        """.formatted(runtime, kind)));
  }
}
