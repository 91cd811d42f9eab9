package io.kftrainer.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@code local} instance for every test class that extends with this, started on first use and stopped when
 * the whole test run ends (JUnit closes the root store's resources), so that the suite pays the process start-up
 * once. Tests get it as a {@link LocalOperator} parameter, typically in a {@code @BeforeAll} method, and keep to
 * their own namespaces. Tests that need other {@code local} options start their own {@link LocalOperator}.
 *
 * <p>The shared instance runs the operator as a cluster runs it by default: the {@code TrainJobStatus} plugin off
 * (upstream's default; {@code local} turns it on), through {@value #PLUGIN_CONFIG}, so that its children are what
 * {@code render} prints. {@code TrainingProgressTest} starts its own instance with it on.
 */
public final class SharedLocalOperator implements ParameterResolver {

  private static final Namespace STORE = Namespace.create(SharedLocalOperator.class);
  private static final String PLUGIN_CONFIG = "TrainJobStatus: {enabled: false}\n";

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == LocalOperator.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getRoot().getStore(STORE)
        .getOrComputeIfAbsent(Instance.class, type -> new Instance(LocalOperator.start("shared",
            List.of("--plugin-config", pluginConfig().toString()))), Instance.class)
        .operator();
  }

  private static Path pluginConfig() {
    try {
      Path file = Locations.workDir().resolve("shared-plugin-config.yaml");
      Files.createDirectories(file.getParent());
      return Files.writeString(file, PLUGIN_CONFIG);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes the process with the root context. */
  private record Instance(LocalOperator operator) implements ExtensionContext.Store.CloseableResource {

    @Override
    public void close() {
      operator.close();
    }
  }
}
