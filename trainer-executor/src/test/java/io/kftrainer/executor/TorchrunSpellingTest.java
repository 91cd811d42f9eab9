package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** torchrun's hyphenated options become the underscored ones every torchrun knows; the script's stay as written. */
class TorchrunSpellingTest {

  @Test
  void torchrunsOwnOptionsAreUnderscoredUpToTheScript() {
    assertThat(TorchrunSpelling.rewrite(List.of("torchrun", "--no-python", "--nproc-per-node=2", "--rdzv-backend",
        "c10d", "--standalone", "python3", "-c", "print(1)", "--some-flag")))
        .containsExactly("torchrun", "--no_python", "--nproc_per_node=2", "--rdzv_backend", "c10d", "--standalone",
            "python3", "-c", "print(1)", "--some-flag");
  }

  @Test
  void otherCommandsAreUntouched() {
    List<String> argv = List.of("python3", "--no-python", "x");

    assertThat(TorchrunSpelling.rewrite(argv)).isSameAs(argv);
    assertThat(TorchrunSpelling.rewrite(List.of("/usr/bin/torchrun", "train.py", "--lr-max", "1")))
        .containsExactly("/usr/bin/torchrun", "train.py", "--lr-max", "1");
  }
}
