package io.kftrainer.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Upstream's gates with its defaults; the file's settings, then the option's; AllAlpha; unknown gates named. */
class FeatureGatesTest {

  @Test
  void trainJobStatusIsAnAlphaGateOffByDefault() {
    assertThat(FeatureGates.KNOWN).containsEntry("TrainJobStatus",
        new FeatureGates.Spec(false, FeatureGates.Stage.ALPHA));
    assertThat(FeatureGates.defaults().enabled(FeatureGates.TRAIN_JOB_STATUS)).isFalse();
    assertThat(FeatureGates.defaults().toString()).isEqualTo("TrainJobStatus=false");
    assertThat(FeatureGates.defaults().enabledPreRelease()).isEmpty();
  }

  @Test
  void laterSettingsWinAndAnExplicitGateWinsOverAllAlpha() {
    FeatureGates file = FeatureGates.defaults().with(Map.of("TrainJobStatus", true));
    FeatureGates flag = file.with(FeatureGates.parse(" TrainJobStatus=false "));

    assertThat(file.enabled(FeatureGates.TRAIN_JOB_STATUS)).isTrue();
    assertThat(file.enabledPreRelease()).containsExactly("TrainJobStatus");
    assertThat(flag.enabled(FeatureGates.TRAIN_JOB_STATUS)).isFalse();
    assertThat(FeatureGates.defaults().with(FeatureGates.parse("AllAlpha=true")).enabled("TrainJobStatus")).isTrue();
    assertThat(FeatureGates.defaults().with(FeatureGates.parse("AllAlpha=true,TrainJobStatus=false"))
        .enabled("TrainJobStatus")).isFalse();
    assertThat(FeatureGates.defaults().with(FeatureGates.parse("AllBeta=true")).enabled("TrainJobStatus")).isFalse();
  }

  @Test
  void unknownGatesAndMalformedItemsAreNamed() {
    assertThatThrownBy(() -> FeatureGates.defaults().with(Map.of("B", true, "A", false)))
        .hasMessage("unknown feature gates A, B (known: TrainJobStatus)");
    assertThatThrownBy(() -> FeatureGates.parse("TrainJobStatus=yes"))
        .hasMessage("invalid feature gate \"TrainJobStatus=yes\": expected Name=true or Name=false");
    assertThat(FeatureGates.parse("")).isEmpty();
  }
}
