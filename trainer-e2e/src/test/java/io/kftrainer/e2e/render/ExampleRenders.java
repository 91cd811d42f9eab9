package io.kftrainer.e2e.render;

import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.OperatorJar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code java -jar trainer.jar render -f examples/<file> -o json}, run once per example for the whole test
 * run (several test classes read the results) and two at a time, since each is a JVM start.
 */
final class ExampleRenders {

  private static final Map<String, Command.Result> RESULTS = new ConcurrentHashMap<>();

  private ExampleRenders() {
  }

  /**
   * The file names of {@code examples/*.yaml} that hold a TrainJob, sorted. ({@code render} renders TrainJobs; the
   * OptimizationJob example is tested by {@code optimization.OptimizationJobTest}.)
   */
  static List<String> files() {
    try (Stream<Path> files = Files.list(Locations.examplesDir())) {
      return files.filter(p -> p.getFileName().toString().endsWith(".yaml")).filter(ExampleRenders::holdsTrainJob)
          .map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean holdsTrainJob(Path file) {
    try {
      return Files.readString(file).lines().anyMatch(line -> line.equals("kind: TrainJob"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Path path(String file) {
    return Locations.examplesDir().resolve(file);
  }

  /** The render of one example file. */
  static synchronized Command.Result of(String file) {
    if (RESULTS.isEmpty()) {
      renderAll();
    }
    return RESULTS.computeIfAbsent(file, ExampleRenders::render);
  }

  private static void renderAll() {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Map<String, Future<Command.Result>> running = files().stream()
          .collect(Collectors.toMap(Function.identity(), file -> pool.submit(() -> render(file))));
      for (Map.Entry<String, Future<Command.Result>> entry : running.entrySet()) {
        RESULTS.put(entry.getKey(), entry.getValue().get());
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot render the examples", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Command.Result render(String file) {
    return OperatorJar.command("render", "-f", path(file).toString(), "-o", "json")
        .timeout(Duration.ofSeconds(120))
        .run();
  }
}
