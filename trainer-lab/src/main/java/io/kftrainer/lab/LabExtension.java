package io.kftrainer.lab;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a running {@link Lab}: {@code @ExtendWith(LabExtension.class)} on the class, a {@code Lab} parameter
 * on a {@code @BeforeAll} method, constructor or test. One lab is started per test JVM, on first use, and stopped
 * when the JVM's tests are done (JUnit's root store closes it). Where the lab is not built
 * ({@link LabBinaries#find()}), the tests report themselves skipped.
 *
 * <p>The lab works in the system property {@code trainer.lab.workDir} (default {@code target/lab}): a fresh
 * directory per start, whose {@code logs/} keep each component's log after the run.
 */
public final class LabExtension implements BeforeAllCallback, ParameterResolver {

  /** kwok nodes of the lab the extension starts. */
  public static final int NODES = 4;

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LabExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    lab(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Lab.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return lab(context);
  }

  private static Lab lab(ExtensionContext context) {
    Optional<LabBinaries> binaries = LabBinaries.find();
    Assumptions.assumeTrue(binaries.isPresent(), LabBinaries::missingReason);
    Started started = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Started.class, key -> {
      try {
        Path work = Path.of(System.getProperty("trainer.lab.workDir", "target/lab"))
            .resolve("lab-" + ProcessHandle.current().pid());
        Lab lab = Lab.start(binaries.get(), work, NODES);
        System.out.printf("Lab: Kubernetes %s, etcd %s, kwok %s, JobSet %s at %s; started in %.1f s (logs: %s)%n",
            lab.versions().get("kubernetes"), lab.versions().get("etcd"), lab.versions().get("kwok"),
            lab.versions().get("jobset"), lab.url(), lab.startup().toMillis() / 1000.0, lab.logs());
        return new Started(lab, null);
      } catch (Exception e) {
        return new Started(null, e);
      }
    }, Started.class);
    if (started.failure() != null) {
      throw new IllegalStateException("the lab did not start", started.failure());
    }
    return started.lab();
  }

  /** The lab of this JVM, or why it did not start (not retried by later test classes). */
  private record Started(Lab lab, Exception failure) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() throws Exception {
      if (lab != null) {
        lab.close();
      }
    }
  }
}
