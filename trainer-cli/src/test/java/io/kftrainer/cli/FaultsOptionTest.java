package io.kftrainer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kftrainer.apiserver.RequestFilter;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * {@code --inject-faults} without the fault injector: trainer.jar does not hold it (a test fixture), and the
 * commands say how to get it. Where a test class path brings trainer-apiserver's test-jar, there is nothing to see.
 */
class FaultsOptionTest {

  @Test
  void withoutTheTestFixturesOnTheClassPathInjectFaultsSaysWhereTheyAre() {
    assumeTrue(ServiceLoader.load(RequestFilter.Provider.class).stream().findAny().isEmpty(),
        "trainer-apiserver's test-jar is on this class path");
    for (String command : new String[] {"apiserver", "local"}) {
      TestingCli.Run run = TestingCli.run(command, "--inject-faults", "rate=0.1");

      assertThat(run.exitCode()).as(command).isEqualTo(2);
      assertThat(run.err()).as(command).contains("--inject-faults: the fault injector is a test fixture, not part of "
          + "trainer.jar: run with trainer-apiserver's test-jar on the class path");
    }
  }
}
