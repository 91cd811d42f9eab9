package io.kftrainer.uitests;

import io.kftrainer.local.LocalMode;
import io.kftrainer.operator.command.RunCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@code local} for the module's tests, in this process, as {@code trainer local} runs it: state in memory, pods
 * run as processes of this machine, the UI on a free port of 127.0.0.1. Closed when the test run ends.
 */
final class LocalUi implements BeforeAllCallback {

  private static LocalMode local;

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).getOrComputeIfAbsent(LocalUi.class, key -> {
      start();
      return (ExtensionContext.Store.CloseableResource) LocalUi::stop;
    });
  }

  static synchronized LocalMode local() {
    return local;
  }

  private static Path directory;

  private static synchronized void start() {
    try {
      directory = Files.createTempDirectory("trainer-ui-tests-");
      local = LocalMode.builder().port(0).ui(0).components(RunCommand.components())
          .kubeconfig(directory.resolve("kubeconfig")).execute(directory.resolve("pods"), 8)
          .out(line -> { }).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static synchronized void stop() throws IOException {
    local.close();
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
