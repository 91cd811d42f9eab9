package io.kftrainer.plugins.plainml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.api.v1alpha1.FluxMLPolicySource;
import io.kftrainer.api.v1alpha1.JAXMLPolicySource;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.MPIMLPolicySource;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.api.v1alpha1.XGBoostMLPolicySource;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PlainMLPluginTest {

  private static final TestPipeline PIPELINE = TestPipeline.of(new PlainMLPlugin());

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void appliesTheTrainerSettingsUnlessTheFrameworkPluginDoes(String name, MLPolicy policy, boolean applies) {
    RuntimeSource runtime = runtime(spec -> spec.setMlPolicy(policy));

    RuntimeInfo info = PIPELINE.build(runtime, trainJob(tj -> { })).info();

    PodSet trainer = info.podSet("node").orElseThrow();
    if (applies) {
      assertThat(trainer.count()).isEqualTo(3);
      assertThat(env(trainer)).containsExactly("FROM_RUNTIME=1", "SHARED=trainjob", "TRAIN_JOB=value");
    } else {
      assertThat(trainer).isEqualTo(PIPELINE.initialInfo(runtime, trainJob(tj -> { })).podSet("node").orElseThrow());
    }
  }

  static Stream<Arguments> policies() {
    return Stream.of(
        Arguments.of("a runtime without mlPolicy is plain ML", null, true),
        Arguments.of("a runtime with numNodes only is plain ML", new MLPolicy().withNumNodes(2), true),
        Arguments.of("an XGBoost runtime is left to the XGBoost plugin",
            new MLPolicy().withXgboost(new XGBoostMLPolicySource()), false),
        Arguments.of("a Flux runtime is left to the Flux plugin",
            new MLPolicy().withFlux(new FluxMLPolicySource()), false),
        Arguments.of("a torch runtime is left to the Torch plugin",
            new MLPolicy().withTorch(new TorchMLPolicySource()), false),
        Arguments.of("an MPI runtime is left to the MPI plugin", new MLPolicy().withMpi(new MPIMLPolicySource()),
            false),
        Arguments.of("a JAX runtime is left to the JAX plugin", new MLPolicy().withJax(new JAXMLPolicySource()),
            false));
  }

  @Test
  void theRuntimeCountAndEnvStayWhenTheTrainJobSetsNeither() {
    RuntimeSource runtime = runtime(spec -> spec.getMlPolicy().setNumNodes(4));
    TrainJob trainJob = trainJob(tj -> {
      tj.getSpec().getTrainer().setNumNodes(null);
      tj.getSpec().getTrainer().setEnv(null);
    });

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(info.podSet("node").orElseThrow().count()).isEqualTo(4);
    assertThat(env(info.podSet("node").orElseThrow())).containsExactly("FROM_RUNTIME=1", "SHARED=runtime");
  }

  @Test
  void onlyTheTrainerPodSetChanges() {
    RuntimeSource runtime = runtime(spec -> { });
    TrainJob trainJob = trainJob(tj -> { });

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(info.podSet("dataset-initializer")).isEqualTo(
        PIPELINE.initialInfo(runtime, trainJob).podSet("dataset-initializer"));
  }

  @Test
  void aTrainJobWithoutTrainerChangesNothing() {
    RuntimeSource runtime = runtime(spec -> { });
    TrainJob trainJob = trainJob(tj -> tj.getSpec().setTrainer(null));

    RuntimeInfo info = PIPELINE.build(runtime, trainJob).info();

    assertThat(info.podSets()).isEqualTo(PIPELINE.initialInfo(runtime, trainJob).podSets());
  }

  @Test
  void theTrainJobIsNotChangedByABuild() {
    TrainJob trainJob = trainJob(tj -> { });
    String before = Yaml.dump(trainJob);

    PIPELINE.build(runtime(spec -> { }), trainJob);

    assertThat(Yaml.dump(trainJob)).isEqualTo(before);
  }

  private static RuntimeSource runtime(Consumer<TrainingRuntimeSpec> change) {
    RuntimeSource runtime = Fixtures.runtime(Fixtures.resource("plainml/runtime.yaml"));
    change.accept(runtime.spec());
    return runtime;
  }

  private static TrainJob trainJob(Consumer<TrainJob> change) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("plainml/trainjob.yaml"));
    change.accept(trainJob);
    return trainJob;
  }

  private static List<String> env(PodSet podSet) {
    return podSet.container("node").orElseThrow().env().stream().map(PlainMLPluginTest::line).toList();
  }

  private static String line(EnvVar env) {
    return env.getName() + "=" + env.getValue();
  }
}
