package io.kftrainer.optimization;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import io.kftrainer.api.v1alpha1.ParameterAssignment;
import io.kftrainer.api.v1alpha1.SearchAlgorithm;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.math3.distribution.UniformRealDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

class RandomSearchTest {

  private static final OptimizationJobSpec SPEC = Specs.random(42L, 100, 4,
      Specs.logUniform("lr", "0.0001", "0.1"),
      Specs.uniform("momentum", "0.5", "0.99"),
      Specs.uniformInt("layers", "1", "4"),
      Specs.logUniformInt("batch", "8", "512"),
      Specs.categorical("optimizer", "sgd", "adam", "adamw"));

  private static List<List<ParameterAssignment>> trials(OptimizationJobSpec spec, long defaultSeed, int count) {
    SuggestionAlgorithm algorithm = SuggestionAlgorithm.of(spec, defaultSeed);
    List<List<ParameterAssignment>> trials = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      trials.add(algorithm.suggest(i).orElseThrow());
    }
    return trials;
  }

  @Test
  void theSameSeedGivesTheSameValuesToTheSameTrialInAnyOrderAndAnyInstance() {
    List<List<ParameterAssignment>> first = trials(SPEC, 0, 100);
    SuggestionAlgorithm again = SuggestionAlgorithm.of(SPEC, 7);

    for (int i = 99; i >= 0; i--) {
      assertThat(again.suggest(i).orElseThrow()).as("trial %d", i).isEqualTo(first.get(i));
    }
    assertThat(new HashSet<>(first)).as("100 distinct trials").hasSize(100);
  }

  @Test
  void theValuesOfASeedAreFixed() {
    // java.util.Random's algorithm is specified: these values hold on every JVM, before and after a restart
    assertThat(trials(SPEC, 0, 1).get(0)).extracting(ParameterAssignment::getValue)
        .containsExactly("0.000139816", "0.837398", "3", "117", "adam");
  }

  @Test
  void anotherSeedGivesOtherValues() {
    List<List<ParameterAssignment>> seeded42 = trials(SPEC, 0, 20);
    List<List<ParameterAssignment>> seeded43 = trials(Specs.random(43L, 100, 4,
        SPEC.getParameters().toArray(io.kftrainer.api.v1alpha1.Parameter[]::new)), 0, 20);

    for (int i = 0; i < 20; i++) {
      assertThat(seeded43.get(i).get(0).getValue()).isNotEqualTo(seeded42.get(i).get(0).getValue());
    }
  }

  @Test
  void withoutSeedTheValuesDependOnTheDefaultSeedTheOperatorDerivesFromTheUid() {
    OptimizationJobSpec unseeded = Specs.spec(new SearchAlgorithm().withRandom(new io.kftrainer.api.v1alpha1
        .RandomAlgorithm()), 10, 1, Specs.uniform("x", "0", "1"));
    long seedA = TrialSeeds.fromUid("6f1c2b9e-3a4d-4c1e-9f00-1234567890ab");
    long seedB = TrialSeeds.fromUid("6f1c2b9e-3a4d-4c1e-9f00-1234567890ac");

    assertThat(trials(unseeded, seedA, 5)).isEqualTo(trials(unseeded, seedA, 5)).isNotEqualTo(trials(unseeded, seedB, 5));
    assertThat(SuggestionAlgorithm.of(unseeded.withSearchAlgorithm(null), seedA)).isInstanceOf(RandomSearch.class);
  }

  @Test
  void everyValueLiesWithinItsSpaceAndIsShortEnoughForTheApi() {
    Map<String, Set<String>> seen = new HashMap<>();
    for (List<ParameterAssignment> trial : trials(Specs.random(42L, 100, 4,
        SPEC.getParameters().toArray(io.kftrainer.api.v1alpha1.Parameter[]::new)), 0, 2000)) {
      for (ParameterAssignment value : trial) {
        assertThat(value.getValue().length()).isLessThanOrEqualTo(64);
        seen.computeIfAbsent(value.getName(), n -> new HashSet<>()).add(value.getValue());
        switch (value.getName()) {
          case "lr" -> assertThat(new BigDecimal(value.getValue()))
              .isBetween(new BigDecimal("0.0001"), new BigDecimal("0.1"));
          case "momentum" -> assertThat(new BigDecimal(value.getValue()))
              .isBetween(new BigDecimal("0.5"), new BigDecimal("0.99"));
          case "layers" -> assertThat(Integer.parseInt(value.getValue())).isBetween(1, 4);
          case "batch" -> assertThat(Integer.parseInt(value.getValue())).isBetween(8, 512);
          default -> assertThat(value.getValue()).isIn("sgd", "adam", "adamw");
        }
      }
    }
    assertThat(seen.get("layers")).containsExactlyInAnyOrder("1", "2", "3", "4");
    assertThat(seen.get("optimizer")).containsExactlyInAnyOrder("sgd", "adam", "adamw");
    assertThat(seen.get("batch")).contains("8", "9");
    assertThat(seen.get("batch").stream().mapToInt(Integer::parseInt).max().orElseThrow()).isGreaterThan(400);
  }

  @Test
  void aUniformIntegerSpaceDrawsEachIntegerEquallyOften() {
    Map<String, Integer> counts = new HashMap<>();
    SuggestionAlgorithm algorithm = SuggestionAlgorithm.of(Specs.random(5L, 100, 1,
        Specs.uniformInt("k", "1", "4")), 0);
    for (int i = 0; i < 4000; i++) {
      counts.merge(algorithm.suggest(i).orElseThrow().get(0).getValue(), 1, Integer::sum);
    }
    // each of the 4 integers 1000 times expected; 4 standard deviations (~27) either way
    assertThat(counts.values()).allSatisfy(count -> assertThat(count).isBetween(890, 1110));
  }

  /**
   * Log-uniform: the logarithm of the values is uniform. Kolmogorov-Smirnov test of log10(value) against
   * U(-4, -1) on 2000 trials; deterministic (fixed seed). The same test rejects values drawn uniformly.
   */
  @Test
  void logUniformValuesHaveAUniformLogarithm() {
    KolmogorovSmirnovTest ks = new KolmogorovSmirnovTest();
    UniformRealDistribution uniformLog = new UniformRealDistribution(-4, -1);

    double[] logs = log10OfDraws(Specs.logUniform("lr", "0.0001", "0.1"));
    double[] linear = log10OfDraws(Specs.uniform("lr", "0.0001", "0.1"));

    assertThat(ks.kolmogorovSmirnovTest(uniformLog, logs)).as("p-value of log-uniform draws").isGreaterThan(0.05);
    assertThat(ks.kolmogorovSmirnovTest(uniformLog, linear)).as("p-value of uniform draws").isLessThan(1e-6);
  }

  private static double[] log10OfDraws(io.kftrainer.api.v1alpha1.Parameter parameter) {
    SuggestionAlgorithm algorithm = SuggestionAlgorithm.of(Specs.random(2026L, 100, 1, parameter), 0);
    double[] logs = new double[2000];
    for (int i = 0; i < logs.length; i++) {
      logs[i] = Math.log10(Double.parseDouble(algorithm.suggest(i).orElseThrow().get(0).getValue()));
    }
    return logs;
  }
}
