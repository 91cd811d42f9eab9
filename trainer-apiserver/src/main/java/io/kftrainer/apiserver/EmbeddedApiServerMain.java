package io.kftrainer.apiserver;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an {@link EmbeddedApiServer} until the process is stopped, for trying things with kubectl:
 * {@code --host H --port P --kubeconfig FILE --crds FILE_OR_DIR (repeatable) --https}.
 */
public final class EmbeddedApiServerMain {

  private EmbeddedApiServerMain() {
  }

  public static void main(String[] args) throws InterruptedException {
    EmbeddedApiServer.Builder builder = EmbeddedApiServer.builder();
    Path kubeconfig = null;
    List<Path> crds = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--host":
          builder.host(args[++i]);
          break;
        case "--port":
          builder.port(Integer.parseInt(args[++i]));
          break;
        case "--https":
          builder.https(true);
          break;
        case "--kubeconfig":
          kubeconfig = Path.of(args[++i]);
          break;
        case "--crds":
          crds.add(Path.of(args[++i]));
          break;
        default:
          System.err.println("usage: [--host H] [--port P] [--https] [--kubeconfig FILE] [--crds FILE_OR_DIR]...");
          System.exit(2);
      }
    }
    EmbeddedApiServer server = builder.start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "embedded-apiserver-shutdown"));
    crds.forEach(server::installCrds);
    if (kubeconfig != null) {
      server.writeKubeconfig(kubeconfig);
    }
    System.out.println("embedded API server listening on " + server.url()
        + (kubeconfig != null ? " (kubeconfig " + kubeconfig + ")" : ""));
    new CountDownLatch(1).await();
  }
}
