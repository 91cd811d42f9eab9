package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.Yamls;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.TerminalStatus;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.StatusContext;
import io.kftrainer.framework.spi.TerminalCondition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PhaseRunnerTest {

  private final RuntimeSource runtime =
      RuntimeSource.of(Yamls.load("torch-runtime.yaml", ClusterTrainingRuntime.class));
  private final TrainJob trainJob = Yamls.load("trainjob-with-patches.yaml", TrainJob.class);

  @Test
  void buildCallsEveryEnforceStepOfEveryPluginBeforeAnyBuilder() {
    List<String> journal = new ArrayList<>();
    PhaseRunner runner = new PhaseRunner(List.of(
        new RecordingPlugin("b", 100, journal), new RecordingPlugin("a", 200, journal)));

    runner.runBuild(runtime, trainJob, ObjectLookup.empty());

    assertThat(journal).containsExactly(
        "EnforceMLPolicy:b", "EnforceMLPolicy:a",
        "EnforcePodGroupPolicy:b", "EnforcePodGroupPolicy:a",
        "EnforcePodSpec:b", "EnforcePodSpec:a",
        "PreBuildSync:b", "PreBuildSync:a",
        "ComponentBuilder:b", "ComponentBuilder:a");
  }

  @Test
  void orderWithinAPhaseIsDeclaredOrderThenNameWhateverTheDiscoveryOrder() {
    List<String> journal = new ArrayList<>();
    List<Plugin> plugins = new ArrayList<>(List.of(
        new RecordingPlugin("zeta", 100, journal),
        new RecordingPlugin("alpha", 100, journal),
        new RecordingPlugin("first", 50, journal),
        new RecordingPlugin("last", 900, journal)));
    List<List<String>> names = new ArrayList<>();
    for (int seed = 0; seed < 5; seed++) {
      Collections.shuffle(plugins, new java.util.Random(seed));
      names.add(new PhaseRunner(plugins).plugins().stream().map(Plugin::name).toList());
    }

    assertThat(names).allSatisfy(order -> assertThat(order).containsExactly("first", "alpha", "zeta", "last"));
  }

  @Test
  void validationAggregatesErrorsAndWarningsOfAllPluginsInOrder() {
    List<String> journal = new ArrayList<>();
    PhaseRunner runner = new PhaseRunner(List.of(
        new RecordingPlugin("second", 200, journal), new RecordingPlugin("first", 100, journal)));

    ValidationResult result = runner.runPreExecution(runtime, null, trainJob, ObjectLookup.empty());

    assertThat(result.errors()).extracting(FieldError::toString)
        .containsExactly("spec.trainer: rejected by first", "spec.trainer: rejected by second");
    assertThat(result.warnings()).containsExactly("warning from first", "warning from second");
    assertThat(journal).containsExactly("CustomValidation:first", "CustomValidation:second");
  }

  @Test
  void builtObjectsBecomeChildrenOfTheTrainJob() {
    PhaseRunner runner = new PhaseRunner(List.of(new RecordingPlugin("cm", 100, new ArrayList<>())));

    List<HasMetadata> objects = runner.runBuild(runtime, trainJob, ObjectLookup.empty()).objects();

    assertThat(objects).singleElement().satisfies(object -> {
      assertThat(object.getMetadata().getName()).isEqualTo("patched-cm");
      assertThat(object.getMetadata().getNamespace()).isEqualTo("team-a");
      assertThat(object.getMetadata().getLabels()).containsEntry(ChildObjects.TRAINJOB_NAME_LABEL, "patched");
      assertThat(object.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
        assertThat(ref.getKind()).isEqualTo("TrainJob");
        assertThat(ref.getApiVersion()).isEqualTo("trainer.kubeflow.org/v1alpha1");
        assertThat(ref.getName()).isEqualTo("patched");
        assertThat(ref.getUid()).isEqualTo("7d3c5c1e-0000-4000-8000-000000000001");
        assertThat(ref.getController()).isTrue();
        assertThat(ref.getBlockOwnerDeletion()).isTrue();
      });
    });
  }

  @Test
  void buildLeavesTheTrainJobUnchanged() {
    String before = Yamls.json(trainJob);

    new PhaseRunner(List.of(new RecordingPlugin("cm", 100, new ArrayList<>())))
        .runBuild(runtime, trainJob, ObjectLookup.empty());

    assertThat(Yamls.json(trainJob)).isEqualTo(before);
  }

  @Test
  void aThrowingPluginIsReportedByNameAndFailsOnlyTheTrainJobItThrowsFor() {
    EnforceMLPolicy picky = new EnforceMLPolicy() {
      @Override
      public String name() {
        return "picky";
      }

      @Override
      public void enforceMLPolicy(BuildContext context) {
        if (context.trainJob().getMetadata().getName().equals("patched")) {
          throw new IllegalStateException("cannot handle this one");
        }
      }
    };
    PhaseRunner runner = new PhaseRunner(List.of(picky, new RecordingPlugin("cm", 100, new ArrayList<>())));

    assertThatThrownBy(() -> runner.runBuild(runtime, trainJob, ObjectLookup.empty()))
        .isInstanceOf(PluginException.class)
        .hasMessage("plugin picky failed in EnforceMLPolicy: cannot handle this one")
        .satisfies(e -> assertThat(((PluginException) e).plugin()).isEqualTo("picky"));

    TrainJob other = Yamls.load("trainjob-with-patches.yaml", TrainJob.class);
    other.getMetadata().setName("other");
    assertThat(runner.runBuild(runtime, other, ObjectLookup.empty()).objects()).hasSize(1);
  }

  @Test
  void duplicatePluginNamesAreAStartupError() {
    assertThatThrownBy(() -> new PhaseRunner(List.of(
        new RecordingPlugin("same", 1, new ArrayList<>()), new RecordingPlugin("same", 2, new ArrayList<>()))))
        .isInstanceOf(PluginSetupException.class)
        .hasMessageContaining("duplicate plugin name \"same\"");
  }

  @Test
  void aSecondTerminalConditionIsAStartupError() {
    assertThatThrownBy(() -> new PhaseRunner(List.of(terminal("one"), terminal("two"))))
        .isInstanceOf(PluginSetupException.class)
        .hasMessage("too many TerminalCondition plugins: [one, two]; at most one may be loaded");
  }

  @Test
  void missingRequiredPluginsAreAStartupError() {
    PhaseRunner runner = new PhaseRunner(List.of(terminal("one")));

    assertThatThrownBy(() -> runner.requirePlugins(List.of("one", "JobSet")))
        .isInstanceOf(PluginSetupException.class)
        .hasMessage("required plugins are not loaded: [JobSet] (loaded: [one])");
  }

  private static TerminalCondition terminal(String name) {
    return new TerminalCondition() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Optional<TerminalStatus> terminalStatus(StatusContext context) {
        return Optional.empty();
      }
    };
  }
}
