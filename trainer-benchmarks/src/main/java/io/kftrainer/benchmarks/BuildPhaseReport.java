package io.kftrainer.benchmarks;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link BuildPhaseBenchmark} and prints, per scenario, the build time, the JSON round-trip floor and their
 * ratio (the goal: a build costs at most 1.5 times the floor), with the error of each score (99.9 %) and the bytes
 * allocated per operation (JMH's GC profiler, {@code -prof gc}). JMH command-line options pass through, e.g.
 * {@code -f 1 -wi 2 -i 3}.
 */
public final class BuildPhaseReport {

  /** The GC profiler's bytes allocated per operation. */
  private static final String ALLOCATED_PER_OP = "gc.alloc.rate.norm";

  private BuildPhaseReport() {
  }

  public static void main(String[] args) throws RunnerException, Exception {
    var options = new OptionsBuilder()
        .parent(new CommandLineOptions(args))
        .include(BuildPhaseBenchmark.class.getSimpleName())
        .addProfiler(GCProfiler.class)
        .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, double[]> byScenario = new TreeMap<>();
    for (RunResult result : results) {
      String scenario = result.getParams().getParam("scenario");
      String benchmark = result.getParams().getBenchmark();
      double score = result.getPrimaryResult().getScore();
      Result<?> allocated = result.getSecondaryResults().get(ALLOCATED_PER_OP);
      double[] figures = byScenario.computeIfAbsent(scenario, k -> new double[6]);
      int column = benchmark.endsWith(".build") ? 0 : 1;
      figures[column] = score;
      figures[2 + column] = result.getPrimaryResult().getScoreError();
      figures[4 + column] = allocated == null ? Double.NaN : allocated.getScore();
    }
    System.out.println();
    System.out.printf("%-16s %18s %18s %7s %13s %13s %7s%n", "scenario", "build (us)", "floor (us)", "ratio",
        "build (B/op)", "floor (B/op)", "ratio");
    byScenario.forEach((scenario, f) -> System.out.printf("%-16s %9.2f ± %6.2f %9.2f ± %6.2f %7.2f %13.0f %13.0f %7.2f%n",
        scenario, f[0], f[2], f[1], f[3], f[0] / f[1], f[4], f[5], f[4] / f[5]));
  }
}
