package io.kftrainer.apiserver.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.function.Consumer;

/**
 * JUnit 5 extension running an {@link EmbeddedApiServer}. As a {@code static} field it starts one server for the
 * class; as an instance field, one per test. Test methods and constructors can take {@link EmbeddedApiServer} or
 * {@link KubernetesClient} parameters.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.withCrds(Path.of("target/classes/META-INF/fabric8"));
 *
 * @Test
 * void reconciles(KubernetesClient client) {
 *   API.server().resetRequests();
 *   ...
 *   assertThat(API.server().writes()).isEmpty();
 * }
 * }</pre>
 *
 * <p>junit-jupiter-api is a {@code provided} dependency of this module: the test classpath that uses the extension
 * brings it.
 */
public final class EmbeddedApiServerExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private final EmbeddedApiServer.Builder builder;
  private final Consumer<EmbeddedApiServer> setup;
  private EmbeddedApiServer server;
  private boolean perClass;

  private EmbeddedApiServerExtension(EmbeddedApiServer.Builder builder, Consumer<EmbeddedApiServer> setup) {
    this.builder = builder;
    this.setup = setup;
  }

  public EmbeddedApiServerExtension() {
    this(EmbeddedApiServer.builder(), s -> {
    });
  }

  /** A server built by {@code builder}, with {@code setup} (installing CRDs, hooks, fixtures) run after start. */
  public static EmbeddedApiServerExtension of(EmbeddedApiServer.Builder builder, Consumer<EmbeddedApiServer> setup) {
    return new EmbeddedApiServerExtension(builder, setup);
  }

  /** A default server with the CRDs of {@code fileOrDirectory} installed. */
  public static EmbeddedApiServerExtension withCrds(java.nio.file.Path fileOrDirectory) {
    return of(EmbeddedApiServer.builder(), s -> s.installCrds(fileOrDirectory));
  }

  public EmbeddedApiServer server() {
    if (server == null) {
      throw new IllegalStateException("the embedded API server is not running (outside a test?)");
    }
    return server;
  }

  public KubernetesClient client() {
    return server().client();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    startServer();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stopServer();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (server == null) {
      startServer();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stopServer();
    }
  }

  private void startServer() {
    server = builder.start();
    try {
      setup.accept(server);
    } catch (RuntimeException e) {
      stopServer();
      throw e;
    }
  }

  private void stopServer() {
    if (server != null) {
      server.close();
      server = null;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    Class<?> type = parameterContext.getParameter().getType();
    return type == EmbeddedApiServer.class || type == KubernetesClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
    if (server == null) {
      startServer();
    }
    Class<?> type = parameterContext.getParameter().getType();
    return type == EmbeddedApiServer.class ? server : server.client();
  }
}
