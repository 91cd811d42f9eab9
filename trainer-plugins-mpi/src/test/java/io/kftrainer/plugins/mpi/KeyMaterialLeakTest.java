package io.kftrainer.plugins.mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.TestPipeline;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generated keys appear in the Secret's data and nowhere else this plugin controls: not in the text of its own
 * values, not in the messages of exceptions raised while a key pair exists.
 */
class KeyMaterialLeakTest {

  private static final SshKeyPair KEYS = SshKeyPairGenerator.generate();
  private static final String TWO_NODES = "trainjob/two-nodes-eight-slots.yaml";

  @Test
  void ownValuesDoNotPrintKeys() {
    MPIPlugin plugin = new MPIPlugin(() -> KEYS);
    TestPipeline.of(plugin, new JobSetPlugin())
        .objects(MpiFixtures.runtime("runtime/openmpi.yaml"), MpiFixtures.trainJob(TWO_NODES));

    assertThat(KEYS.toString()).isEqualTo("SshKeyPair{ecdsa-sha2-nistp521, keys redacted}");
    assertNoKeyMaterial(plugin.toString());
    assertNoKeyMaterial(MpiSettings.of(MpiFixtures.runtime("runtime/openmpi.yaml").spec().getMlPolicy().getMpi())
        .toString());
  }

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of("the builder finding an unknown implementation",
            (Supplier<Throwable>) () -> {
              RuntimeSource runtime = MpiFixtures.runtime("runtime/openmpi.yaml");
              runtime.spec().getMlPolicy().getMpi().setMpiImplementation("MVAPICH");
              MPIPlugin plugin = new MPIPlugin(() -> KEYS);
              BuildContext context = TestPipeline.of(plugin).context(runtime, MpiFixtures.trainJob(TWO_NODES));
              return catchThrowable(() -> plugin.build(context));
            }),
        Arguments.of("a later builder failing after the Secret was built",
            (Supplier<Throwable>) () -> catchThrowable(() -> TestPipeline.of(new MPIPlugin(() -> KEYS),
                    new FailingBuilder())
                .objects(MpiFixtures.runtime("runtime/openmpi.yaml"), MpiFixtures.trainJob(TWO_NODES)))),
        Arguments.of("the cluster lookup failing",
            (Supplier<Throwable>) () -> {
              MPIPlugin plugin = new MPIPlugin(() -> KEYS);
              BuildContext context = TestPipeline.of(plugin)
                  .context(MpiFixtures.runtime("runtime/openmpi.yaml"), MpiFixtures.trainJob(TWO_NODES));
              return catchThrowable(() -> plugin.build(new BuildContext(context.trainJob(), context.info(),
                  new FailingLookup())));
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void exceptionsDoNotCarryKeys(String name, Supplier<Throwable> failure) {
    Throwable thrown = failure.get();

    assertThat(thrown).as("the scenario fails").isNotNull();
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      assertNoKeyMaterial(t.getMessage());
      assertNoKeyMaterial(t.toString());
    }
  }

  private static void assertNoKeyMaterial(String text) {
    if (text == null) {
      return;
    }
    for (String secret : keyMaterial()) {
      assertThat(text).doesNotContain(secret);
    }
  }

  /** The private key in every form it takes (PEM body lines, Secret data) and the public key blob. */
  private static List<String> keyMaterial() {
    String pem = new String(KEYS.privateKeyPem(), StandardCharsets.US_ASCII);
    List<String> forms = new ArrayList<>();
    pem.lines().filter(line -> !line.startsWith("-----")).forEach(forms::add);
    forms.add(Base64.getEncoder().encodeToString(KEYS.privateKeyPem()).substring(0, 64));
    forms.add(KEYS.authorizedKeyText().split(" ")[1].strip().substring(0, 64));
    forms.add(Base64.getEncoder().encodeToString(KEYS.authorizedKey()).substring(0, 64));
    return forms;
  }

  /** A builder after MPI that fails; the runner wraps its exception. */
  private static final class FailingBuilder implements ComponentBuilder {

    @Override
    public String name() {
      return "Failing";
    }

    @Override
    public List<HasMetadata> build(BuildContext context) {
      throw new IllegalStateException("builder failed");
    }
  }

  private static final class FailingLookup implements ObjectLookup {

    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
      throw new IllegalStateException("cache not synced for " + type.getSimpleName());
    }

    @Override
    public <T extends HasMetadata> List<T> list(Class<T> type, String namespace) {
      throw new IllegalStateException("cache not synced for " + type.getSimpleName());
    }
  }
}
