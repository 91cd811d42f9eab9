package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands images have that the executor puts first on the pods' PATH: {@code python} where the machine has only
 * {@code python3}, and a {@code torchrun} that works with Debian's torch 1.13 under Python 3.11 (the Kubeflow SDK's
 * {@code CustomTrainer} command: {@code bash -c '... torchrun train.py'}, its options from the {@code PET_*} env).
 */
class ImageCommandsTest {

  private static final Path PYTHON3 = Path.of("/usr/bin/python3");

  @TempDir
  Path runDir;

  @Test
  void thePodsPathStartsWithTheImageCommandsThenTheImagesStandardPath() {
    String path = ImageCommands.install(runDir);

    assertThat(path).isEqualTo(runDir.resolve("bin/image") + ":" + ImageCommands.IMAGE_PATH);
    assertThat(runDir.resolve("bin/image/torchrun")).isExecutable();
    assertThat(runDir.resolve("bin/image/python")).isExecutable();
  }

  @Test
  void pythonRunsAPython3WhereTheMachineHasNoPythonCommand() throws Exception {
    assumeTrue(Files.isExecutable(PYTHON3), "no /usr/bin/python3");
    String path = ImageCommands.install(runDir);

    Result result = run(path, Map.of(), "python", "-c", "import sys; print('major', sys.version_info[0])");

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("major 3");
  }

  @Test
  void torchrunStartsTheLocalRanksOfATwoProcessGlooGroupFromThePetEnv() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/torchrun")) && python3("import torch"),
        "python3-torch is not installed");
    String path = ImageCommands.install(runDir);
    Path script = runDir.resolve("train.py");
    Files.writeString(script, """
        import torch, torch.distributed as dist
        dist.init_process_group("gloo")
        t = torch.ones(1) * (dist.get_rank() + 1)
        dist.all_reduce(t)
        print(f"rank {dist.get_rank()} of {dist.get_world_size()}: sum {t.item():.0f}", flush=True)
        dist.destroy_process_group()
        """);

    Result result = run(path, Map.of("PET_NNODES", "1", "PET_NPROC_PER_NODE", "2", "PET_NODE_RANK", "0",
        "PET_MASTER_ADDR", "127.0.0.1", "PET_MASTER_PORT", String.valueOf(freePort())),
        "bash", "-c", "torchrun \"" + script + "\"");

    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("rank 0 of 2: sum 3", "rank 1 of 2: sum 3");
  }

  private record Result(int exitCode, String output) {
  }

  private Result run(String path, Map<String, String> env, String... command) throws Exception {
    Path out = runDir.resolve("out-" + System.nanoTime() + ".log");
    ProcessBuilder builder = new ProcessBuilder(List.of(command)).redirectErrorStream(true)
        .redirectOutput(out.toFile()).directory(runDir.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", path);
    builder.environment().put("HOME", runDir.toString());
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not end within 120 s: "
          + Files.readString(out, StandardCharsets.UTF_8));
    }
    return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }

  private static boolean python3(String code) {
    try {
      Process process = new ProcessBuilder(PYTHON3.toString(), "-c", code).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
