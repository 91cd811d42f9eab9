package io.kftrainer.framework.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.Yamls;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.EnforcePodSpec;
import io.kftrainer.framework.spi.ObjectLookup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Plugin calls that fail in every way but an exception still fail only their call, named by plugin and phase. */
class PluginCallsTest {

  private final RuntimeSource runtime =
      RuntimeSource.of(Yamls.load("torch-runtime.yaml", ClusterTrainingRuntime.class));
  private final TrainJob trainJob = Yamls.load("trainjob-with-patches.yaml", TrainJob.class);

  @Test
  void aCallThatIgnoresInterruptionIsAbandonedAndAtMostFourThreadsPerPluginAreEverStuckInIt() {
    CountDownLatch release = new CountDownLatch(1);
    PluginCalls calls = PluginCalls.withTimeout(Duration.ofMillis(100));
    PhaseRunner runner = new PhaseRunner(List.of(new Deaf(release), new RecordingPlugin("cm", 1, new ArrayList<>())))
        .withCalls(calls);

    for (int i = 1; i <= PluginCalls.STUCK_CALLS_PER_PLUGIN; i++) {
      assertThatThrownBy(() -> runner.runBuild(runtime, trainJob, ObjectLookup.empty()))
          .isInstanceOf(PluginException.class)
          .hasMessage("plugin Deaf failed in EnforcePodSpec: did not return within 100 ms");
      assertThat(calls.stuckCalls("Deaf")).isEqualTo(i);
    }
    long start = System.nanoTime();
    assertThatThrownBy(() -> runner.runBuild(runtime, trainJob, ObjectLookup.empty()))
        .isInstanceOf(PluginException.class)
        .hasMessage("plugin Deaf failed in EnforcePodSpec: 4 earlier calls have not returned after the timeout; "
            + "its calls are refused until they do");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(100));

    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> calls.stuckCalls("Deaf") == 0);
    assertThat(runner.runBuild(runtime, trainJob, ObjectLookup.empty()).objects()).hasSize(1);
  }

  @Test
  void anErrorOfAPluginJarIsThePluginsFailure() {
    EnforcePodSpec linkage = new EnforcePodSpec() {
      @Override
      public String name() {
        return "OldJar";
      }

      @Override
      public void enforcePodSpec(BuildContext context) {
        throw new NoSuchMethodError("io.kftrainer.framework.spi.BuildContext.removed()");
      }
    };

    assertThatThrownBy(() -> new PhaseRunner(List.of(linkage)).withCalls(PluginCalls.withTimeout(Duration.ofSeconds(5)))
        .runBuild(runtime, trainJob, ObjectLookup.empty()))
        .isInstanceOf(PluginException.class)
        .hasMessage("plugin OldJar failed in EnforcePodSpec: NoSuchMethodError: "
            + "io.kftrainer.framework.spi.BuildContext.removed(): the plugin was built against another version of "
            + "that class");
  }

  @Test
  void invalidObjectsOfABuilderAreItsFailure() {
    assertThatThrownBy(() -> build(Arrays.asList((HasMetadata) null)))
        .isInstanceOf(PluginException.class)
        .hasMessage("plugin Sloppy failed in ComponentBuilder: returned null as object 0");
    assertThatThrownBy(() -> build(null))
        .hasMessage("plugin Sloppy failed in ComponentBuilder: returned null instead of a list");
    assertThatThrownBy(() -> build(List.of(new ConfigMap())))
        .hasMessage("plugin Sloppy failed in ComponentBuilder: returned a ConfigMap without metadata.name");
  }

  private List<HasMetadata> build(List<HasMetadata> returned) {
    ComponentBuilder sloppy = new ComponentBuilder() {
      @Override
      public String name() {
        return "Sloppy";
      }

      @Override
      public List<HasMetadata> build(BuildContext context) {
        return returned;
      }
    };
    return new PhaseRunner(List.of(sloppy)).runBuild(runtime, trainJob, ObjectLookup.empty()).objects();
  }

  /** Blocks until released, ignoring interruption. */
  private static final class Deaf implements EnforcePodSpec {

    private final CountDownLatch release;

    Deaf(CountDownLatch release) {
      this.release = release;
    }

    @Override
    public String name() {
      return "Deaf";
    }

    @Override
    public void enforcePodSpec(BuildContext context) {
      while (true) {
        try {
          release.await();
          return;
        } catch (InterruptedException ignored) {
          // deaf: keeps waiting
        }
      }
    }
  }
}
