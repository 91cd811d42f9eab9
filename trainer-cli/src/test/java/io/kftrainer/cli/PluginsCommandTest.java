package io.kftrainer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.cli.TestingCli.Run;
import io.kftrainer.operator.plugins.TestingPluginJar;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginsCommandTest {

  @Test
  void theBuiltInPluginsAreListedInPhaseOrderWithTheirExtensionPoints() {
    Run run = TestingCli.run("plugins", "--plugins-dir", "target/no-such-plugins-dir");

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out().lines().skip(1).map(line -> line.split(" +")[0]))
        .containsSubsequence("Torch", "MPI", "CoScheduling", "JobSet");
    assertThat(run.out().lines())
        .anyMatch(line -> line.matches("Torch +100 +CustomValidation,EnforceMLPolicy +.*trainer-plugins-torch.*"));
    assertThat(run.out()).doesNotContain("Load problems");
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    Run run = TestingCli.run("plugins", "--bogus");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("Unknown option: '--bogus'");
  }

  @Test
  void aThirdPartyPluginIsListedWithItsJarAndABrokenJarAsALoadProblem(@TempDir Path tmp) throws IOException {
    Path pluginsDir = tmp.resolve("plugins");
    Path jar = TestingPluginJar.build(pluginsDir.resolve("noop/noop-plugin.jar"), "com.example.noop.NoopPlugin",
        Map.of("com.example.noop.NoopPlugin", """
            package com.example.noop;

            import io.kftrainer.framework.spi.BuildContext;
            import io.kftrainer.framework.spi.EnforcePodGroupPolicy;

            public final class NoopPlugin implements EnforcePodGroupPolicy {
              @Override
              public String name() {
                return "Noop";
              }

              @Override
              public void enforcePodGroupPolicy(BuildContext context) {
              }
            }
            """));
    Path broken = Files.writeString(pluginsDir.resolve("broken-plugin.jar"), "not a zip file");

    Run run = TestingCli.run("plugins", "--plugins-dir", pluginsDir.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("Error: cannot load plugin " + broken + ": not a readable jar: zip END header "
        + "not found (--allow-plugin-load-failures starts without it)\n");
    assertThat(run.out().lines())
        .anyMatch(line -> line.matches("Noop +1000 +EnforcePodGroupPolicy +" + jar))
        .anyMatch(line -> line.matches("JobSet +300 +.*ComponentBuilder.*"));
    assertThat(run.out()).endsWith("\nLoad problems:\n  " + broken + ": not a readable jar: zip END header not "
        + "found\n");
  }
}
