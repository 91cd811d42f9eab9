package io.kftrainer.executor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * One NVIDIA GPU of this machine, as {@code nvidia-smi --query-gpu=index,uuid,name,memory.total
 * --format=csv,noheader} lists it: what the node offers as {@code nvidia.com/gpu} and what a container gets in
 * {@code CUDA_VISIBLE_DEVICES} (the index) and {@code NVIDIA_VISIBLE_DEVICES} (the UUID, as the NVIDIA device
 * plugin gives it).
 *
 * <p>nvidia-smi's {@code csv,noheader} output is split on commas here rather than by a CSV library: it never quotes
 * (product names hold no comma) and this is its only use.
 */
public record Gpu(int index, String uuid, String name, String memory) {

  /** The option's words: {@code auto} (nvidia-smi on PATH, if any), {@code none}, or a count. */
  public static final String AUTO = "auto";
  public static final String NONE = "none";

  private static final String[] QUERY = {"--query-gpu=index,uuid,name,memory.total", "--format=csv,noheader"};
  private static final long TIMEOUT_SECONDS = 10;

  /**
   * The GPUs the node offers for {@code option}: {@code auto} asks the {@code nvidia-smi} found on {@code path}
   * (none without it), {@code none} offers none, and a count {@code N} offers the first {@code N} nvidia-smi lists
   * (GPUs {@code 0..N-1} of unknown model when it lists fewer, e.g. without nvidia-smi).
   *
   * @throws IllegalArgumentException naming the option when it is none of these, or nvidia-smi fails
   */
  public static List<Gpu> fromOption(String option, String path) {
    if (option == null || AUTO.equals(option)) {
      return find(path).map(Gpu::query).orElse(List.of());
    }
    if (NONE.equals(option)) {
      return List.of();
    }
    int count;
    try {
      count = Integer.parseInt(option);
    } catch (NumberFormatException e) {
      count = -1;
    }
    if (count < 0) {
      throw new IllegalArgumentException("--gpus: Invalid value: \"" + option + "\": must be auto, none or a count");
    }
    List<Gpu> listed = find(path).map(Gpu::query).orElse(List.of());
    return IntStream.range(0, count).mapToObj(i -> i < listed.size() ? listed.get(i)
        : new Gpu(i, "GPU-local-" + i, "unknown", "")).toList();
  }

  static Optional<Path> find(String path) {
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(":")) {
      if (!dir.isEmpty()) {
        Path candidate = Path.of(dir, "nvidia-smi");
        if (Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  static List<Gpu> query(Path nvidiaSmi) {
    List<String> command = new ArrayList<>(List.of(nvidiaSmi.toString()));
    command.addAll(List.of(QUERY));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalArgumentException(nvidiaSmi + " did not answer within " + TIMEOUT_SECONDS + " s: use "
            + "--gpus none or --gpus N");
      }
      if (process.exitValue() != 0) {
        // as on a machine with the tools but no working driver: no GPU is usable
        return List.of();
      }
      return parse(output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    }
  }

  static List<Gpu> parse(String output) {
    List<Gpu> gpus = new ArrayList<>();
    for (String line : output.split("\n")) {
      String[] fields = line.split(",");
      if (fields.length < 4) {
        continue;
      }
      try {
        gpus.add(new Gpu(Integer.parseInt(fields[0].trim()), fields[1].trim(), fields[2].trim(), fields[3].trim()));
      } catch (NumberFormatException e) {
        // a warning line of nvidia-smi's, not a GPU
      }
    }
    return List.copyOf(gpus);
  }
}
