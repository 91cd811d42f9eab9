package io.kftrainer.benchmarks;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link BuildPhaseBenchmark} and prints, per scenario, the build time, the JSON round-trip floor and their
 * ratio (the goal: a build costs at most 1.5 times the floor). JMH command-line options pass through, e.g.
 * {@code -f 1 -wi 2 -i 3}.
 */
public final class BuildPhaseReport {

  private BuildPhaseReport() {
  }

  public static void main(String[] args) throws RunnerException, Exception {
    var options = new OptionsBuilder()
        .parent(new CommandLineOptions(args))
        .include(BuildPhaseBenchmark.class.getSimpleName())
        .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, double[]> byScenario = new TreeMap<>();
    for (RunResult result : results) {
      String scenario = result.getParams().getParam("scenario");
      String benchmark = result.getParams().getBenchmark();
      double score = result.getPrimaryResult().getScore();
      double[] pair = byScenario.computeIfAbsent(scenario, k -> new double[2]);
      pair[benchmark.endsWith(".build") ? 0 : 1] = score;
    }
    System.out.println();
    System.out.printf("%-16s %14s %14s %8s%n", "scenario", "build (us)", "floor (us)", "ratio");
    byScenario.forEach((scenario, pair) ->
        System.out.printf("%-16s %14.2f %14.2f %8.2f%n", scenario, pair[0], pair[1], pair[0] / pair[1]));
  }
}
