package io.kftrainer.benchmarks.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of issue 23, as a user of {@code local} meets them, in one table; a main, not a test:
 *
 * <pre>java -cp trainer-benchmarks/target/benchmarks.jar io.kftrainer.benchmarks.local.LocalFigures \
 *     trainer-cli/target/trainer.jar [admission] [training] [startup] [burst]</pre>
 *
 * <ul>
 *   <li>{@code admission} ({@link AdmissionFigures}): creates of each kind through {@code local --no-execute},
 *       p50/p90/p99, the TrainJob/ConfigMap ratio at p50, and the threads the JVM started per 1,000 creates, on a
 *       JVM that sees 1 CPU and one that sees 2 ({@code -XX:ActiveProcessorCount}).</li>
 *   <li>{@code training} ({@link TrainingFigures}): a short PyTorch DDP training (2 nodes x 2 processes) as bare
 *       processes and as a TrainJob through {@code local} (with {@code bin/trainer}'s JVM options), alternately: the
 *       overhead of {@code local} from create to {@code Complete}.</li>
 *   <li>{@code startup} ({@link StartupFigures}): {@code local --apply} with {@code bin/trainer}'s JVM options, to
 *       its banner and to the TrainJob's pod running.</li>
 *   <li>{@code burst} ({@link BurstFigures}): bursts of TrainJobs through {@code local --no-execute} until each has
 *       its JobSet, against a bare client making the same writes, alternately; requests per TrainJob.</li>
 * </ul>
 *
 * Sizes: {@code -Dfigures.warmup=75 -Dfigures.rounds=300 -Dfigures.cpus=1,2 -Dfigures.trainings=5
 * -Dfigures.starts=5 -Dfigures.burst=1000 -Dfigures.bursts=2}. {@code -Dfigures.jvm="OPTIONS"} adds JVM options to every
 * {@code local}; {@code -Dfigures.jfr=DIR} dumps each {@code local}'s flight recordings there before stopping it;
 * {@code -Dfigures.jfr.settings=FILE.jfc} starts one for the measured part only.
 */
public final class LocalFigures {

  private static final int WARM_UP = Integer.getInteger("figures.warmup", 75);
  private static final int ROUNDS = Integer.getInteger("figures.rounds", 300);
  private static final int TRAININGS = Integer.getInteger("figures.trainings", 5);
  private static final int STARTS = Integer.getInteger("figures.starts", 5);
  private static final int BURST = Integer.getInteger("figures.burst", 1000);
  private static final int BURSTS = Integer.getInteger("figures.bursts", 2);

  private final Path jar;
  private final Path workDir;
  private final List<String> rows = new ArrayList<>();

  private LocalFigures(Path jar, Path workDir) {
    this.jar = jar;
    this.workDir = workDir;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: LocalFigures TRAINER_JAR [admission] [training] [startup] [burst]");
      System.exit(2);
    }
    List<String> sections = args.length > 1 ? List.of(args).subList(1, args.length)
        : List.of("admission", "training", "startup", "burst");
    LocalFigures figures = new LocalFigures(Path.of(args[0]), Files.createTempDirectory("local-figures"));
    System.out.printf(Locale.ROOT, "machine: %d CPUs, Java %s, load %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), Proc.load());
    for (String section : sections) {
      switch (section) {
        case "admission" -> figures.admission();
        case "training" -> figures.training();
        case "startup" -> figures.startup();
        case "burst" -> figures.burst();
        default -> throw new IllegalArgumentException("unknown section " + section);
      }
    }
    System.out.printf(Locale.ROOT, "load after: %s%n", Proc.load());
    System.exit(0);
  }

  private void admission() throws Exception {
    for (String cpus : System.getProperty("figures.cpus", "1,2").split(",")) {
      try (LocalProcess local = LocalProcess.start(jar, List.of("-XX:ActiveProcessorCount=" + cpus),
          List.of("--no-execute"), workDir)) {
        AdmissionFigures.Result result = new AdmissionFigures(local).run(WARM_UP, ROUNDS);
        System.out.printf(Locale.ROOT, "%nadmission, local --no-execute on a %d-CPU JVM: %d sequential creates of each "
            + "kind after %d warm-up ones (load %s)%n", Integer.parseInt(cpus), ROUNDS, WARM_UP, Proc.load());
        System.out.printf(Locale.ROOT, "  %-26s %8s %8s %8s %12s%n", "create of", "p50 ms", "p90 ms", "p99 ms",
            "CPU ms each");
        for (Map.Entry<String, Samples> kind : result.latencies().entrySet()) {
          Samples s = kind.getValue();
          System.out.printf(Locale.ROOT, "  %-26s %8.2f %8.2f %8.2f %12.2f%n", kind.getKey(), s.p50(), s.millis(90),
              s.millis(99), result.cpuMillis().get(kind.getKey()));
        }
        String trainJob = AdmissionFigures.ALL_KINDS.get(2).name();
        String configMap = AdmissionFigures.ALL_KINDS.get(0).name();
        if (result.latencies().containsKey(trainJob) && result.latencies().containsKey(configMap)) {
          System.out.printf(Locale.ROOT, "  TrainJob / ConfigMap at p50: %.1fx%n", result.ratio(trainJob, configMap));
        }
        System.out.printf(Locale.ROOT, "  threads started per 1,000 creates: %.0f (%d alive after)%n",
            result.threadsPer1000(), result.liveThreads());
      }
    }
  }

  private void training() throws Exception {
    if (!TrainingFigures.available()) {
      System.out.println("\ntraining: SKIPPED (no /usr/bin/python3 with torch: apt-get install python3-torch)");
      return;
    }
    // as users run local: bin/trainer's JVM options (C2's compilations competed with the training for the CPUs)
    try (LocalProcess local = LocalProcess.start(jar, StartupFigures.binTrainerOptions(jar),
        List.of("--run-dir", workDir.resolve("run").toString()), workDir)) {
      TrainingFigures.Result result = new TrainingFigures(local, workDir).run(TRAININGS);
      System.out.printf(Locale.ROOT, "%ntraining, PyTorch DDP 2 nodes x 2 processes, bare (%s) and through local, "
          + "alternated %d times after a warm-up, local with %s (load %s), medians%n",
          result.contained() ? "in bwrap, as local's pods" : "uncontained, as local's pods", TRAININGS,
          StartupFigures.binTrainerOptions(jar), Proc.load());
      System.out.printf(Locale.ROOT, "  bare processes %8.0f ms%n  TrainJob       %8.0f ms%n  overhead       %8.0f ms"
          + "   (measured directly: create -> first process %.0f + node skew %.0f + last exit -> Complete %.0f"
          + " = %.0f ms)%n", result.bareMillis(), result.trainJobMillis(), result.overhead(), result.toFirstProcess(),
          result.nodeSkew(), result.exitToComplete(),
          result.toFirstProcess() + result.nodeSkew() + result.exitToComplete());
      if (Boolean.getBoolean("figures.verbose")) {
        for (int i = 0; i < result.bare().size(); i++) {
          System.out.printf(Locale.ROOT, "    run %d: bare %s, TrainJob %s%n", i, parts(result.bare().get(i)),
              parts(result.trainJobs().get(i)));
        }
      }
    }
  }

  private void startup() throws Exception {
    StartupFigures.Result result = new StartupFigures(jar, workDir).run(STARTS);
    System.out.printf(Locale.ROOT, "%nstart-up, local --apply (one pod) with bin/trainer's options %s, %d starts (load %s),"
        + " medians%n  to the banner %8.0f ms (CPU %.0f ms)%n  to the pod Running %4.0f ms%n",
        StartupFigures.binTrainerOptions(jar), result.starts(), Proc.load(), result.toBanner(), result.cpuToBanner(),
        result.toRunning());
  }

  private void burst() throws Exception {
    try (LocalProcess local = LocalProcess.start(jar, List.of(), List.of("--no-execute"), workDir)) {
      BurstFigures.Result result = new BurstFigures(local).run(BURST, BURSTS);
      System.out.printf(Locale.ROOT, "%nburst, %d TrainJobs from %d threads through local --no-execute until each has its "
          + "JobSet, alternated %d times (load %s)%n", result.count(), BurstFigures.CLIENTS, BURSTS, Proc.load());
      System.out.printf(Locale.ROOT, "  operator        %6.2f s (median of %s; local's CPU %s s)%n"
          + "  bare client     %6.2f s (median of %s; local's CPU %s s)%n  ratio           %6.2f%n",
          result.operatorMedian(), result.operator(), result.operatorCpu(), result.bareMedian(), result.bare(),
          result.bareCpu(), result.operatorMedian() / result.bareMedian());
      System.out.println("  requests per TrainJob in an operator burst, by client, verb and resource:");
      result.requestsPerTrainJob().forEach((key, perTrainJob) -> {
        if (perTrainJob >= 0.01) {
          System.out.printf(Locale.ROOT, "    %-80s %6.2f%n", key, perTrainJob);
        }
      });
    }
  }

  /** A run's total and parts in milliseconds: to the first process, node skew, processes, last exit to done. */
  private static String parts(TrainingFigures.Run run) {
    return String.format(Locale.ROOT, "%d ms (start %d, skew %d, processes %d, end %d)", run.total() / 1000,
        (run.firstStart() - run.launched()) / 1000, (run.lastStart() - run.firstStart()) / 1000,
        (run.lastExit() - run.lastStart()) / 1000, (run.done() - run.lastExit()) / 1000);
  }
}
