package io.kftrainer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The banner's example command points at a file that exists, or carries its TrainJob inline. */
class LocalBannerTest {

  @TempDir
  Path tmp;

  @Test
  void theExampleOfTheWorkingDirectoryIsNamedRelatively() throws IOException {
    Files.createDirectories(tmp.resolve("examples"));
    Files.writeString(tmp.resolve(LocalCommand.EXAMPLE), "kind: TrainJob\n");

    assertThat(LocalCommand.exampleCommand(tmp, Optional.empty()))
        .isEqualTo("kubectl create -f examples/torch-trainjob.yaml");
  }

  @Test
  void elsewhereTheExampleOfTheCheckoutIsNamedByItsPath() throws IOException {
    Path checkout = Files.createDirectories(tmp.resolve("trainer"));
    Files.createDirectories(checkout.resolve("examples"));
    Files.writeString(checkout.resolve(LocalCommand.EXAMPLE), "kind: TrainJob\n");

    assertThat(LocalCommand.exampleCommand(Files.createDirectories(tmp.resolve("elsewhere")), Optional.of(checkout)))
        .isEqualTo("kubectl create -f " + checkout.resolve("examples/torch-trainjob.yaml"));
  }

  @Test
  void withoutACheckoutTheTrainJobIsInline() throws IOException {
    String command = LocalCommand.exampleCommand(tmp, Optional.of(tmp.resolve("no-checkout")));

    assertThat(command).startsWith("echo '").endsWith("' | kubectl create -f -");
    String json = command.substring("echo '".length(), command.length() - "' | kubectl create -f -".length());
    TrainJob trainJob = new ObjectMapper().readValue(json, TrainJob.class);
    assertThat(trainJob.getSpec().getRuntimeRef().getName()).isEqualTo("torch-distributed");
    assertThat(trainJob.getSpec().getTrainer().getCommand()).containsExactly("echo", "hello from a TrainJob");
  }
}
