package io.kftrainer.cli;

import io.kftrainer.local.EmbeddedCluster;
import io.kftrainer.local.SchemaWarmUp;
import ch.qos.logback.classic.Level;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.apiserver.RequestFilter;
import io.kftrainer.operator.app.KubernetesClients;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.command.Logging;
import io.kftrainer.operator.command.Streams;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code trainer apiserver}: the embedded API server alone, installed as {@code local} installs it
 * ({@link EmbeddedCluster}), with the operator's webhook Service routed to operators that run as processes of their
 * own ({@code trainer run --kubeconfig FILE --webhook-port PORT}), so that each can be stopped, killed or
 * restarted on its own: for chaos tests, failover and load measurements.
 *
 * <p>The webhook Service has as many endpoints as {@code --webhook-address}es: each call goes to the first that
 * accepts a connection, as kube-proxy sends traffic only to ready endpoints. The kubeconfig is written last: its
 * presence means the server is ready. Runs until SIGTERM or Ctrl-C (exit 0).
 */
@Command(name = "apiserver", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
    description = {"Run the embedded Kubernetes API server alone, with the CRDs, namespaces, webhook configurations "
        + "and default runtimes installed as by 'local' (or nothing, with --empty), for operators started "
        + "separately with 'run --kubeconfig FILE'.",
        "Resource requests by client, verb and resource, and the faults injected, are served as JSON on "
            + "GET /debug/stats (DELETE resets the request counts)."})
public final class ApiServerCommand implements Callable<Integer> {

  static final String DEFAULT_KUBECONFIG = "trainer-apiserver.kubeconfig";
  private static final int PROBE_TIMEOUT_MILLIS = 200;

  private final Streams streams;

  @Option(names = "--port", paramLabel = "N", defaultValue = "0",
      description = "Port on 127.0.0.1; 0 for any free port (default: ${DEFAULT-VALUE}).")
  private int port;

  @Option(names = "--kubeconfig-out", paramLabel = "FILE", defaultValue = DEFAULT_KUBECONFIG,
      description = "Where to write the kubeconfig, once the server is ready (default: ./${DEFAULT-VALUE}).")
  private Path kubeconfigOut;

  @Option(names = "--plain-http", description = "Serve plain HTTP instead of HTTPS, for clients without TLS (the "
      + "image build's AppCDS training script). Requests still need the kubeconfig's token; kubectl and client-go "
      + "send it over HTTPS only.")
  private boolean plainHttp;

  @Option(names = "--webhook-address", paramLabel = "HOST:PORT", split = ",",
      description = "Where the operator's webhook servers listen (run's --webhook-port), one per operator process: "
          + "each admission call goes to the first that accepts a connection. Repeatable "
          + "(default: 127.0.0.1:" + OperatorConfig.DEFAULT_WEBHOOK_PORT + ").")
  private List<String> webhookAddresses = new ArrayList<>();

  @Option(names = "--operator-namespace", paramLabel = "NS", defaultValue = OperatorConfig.DEFAULT_OPERATOR_NAMESPACE,
      description = "Namespace of the operator's webhook Service, as run's option (default: ${DEFAULT-VALUE}).")
  private String operatorNamespace;

  @Option(names = "--webhook-service-name", paramLabel = "NAME",
      defaultValue = OperatorConfig.DEFAULT_WEBHOOK_SERVICE_NAME,
      description = "The operator's webhook Service, as run's option (default: ${DEFAULT-VALUE}).")
  private String webhookServiceName;

  @Option(names = "--empty", description = "Install nothing: no CRDs, webhook configurations or runtimes, only "
      + "the namespaces kube-apiserver creates (default, kube-system, kube-public, kube-node-lease), for installers "
      + "under test (helm install, kubectl apply -k). The webhook Service is routed all the same.")
  private boolean empty;

  @Option(names = "--inject-faults", paramLabel = "SPEC", converter = FaultsOption.class,
      description = FaultsOption.DESCRIPTION)
  private RequestFilter faults;

  @Option(names = "--faults-off", description = "Start with the faults of --inject-faults off, e.g. until the "
      + "operators are up; POST /debug/stats?faults=on (or off) switches them.")
  private boolean faultsOff;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Keep the objects in DIR (a SQLite database, as local --data-dir) and start from what it holds "
          + "(default: in memory only).")
  private Path dataDir;

  @Option(names = {"-v", "--verbose"}, description = "Log at INFO level (default: warnings and errors only).")
  private boolean verbose;

  public ApiServerCommand(Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() throws InterruptedException {
    Logging.setLevel(verbose ? Level.INFO : Level.WARN);
    List<InetSocketAddress> endpoints = endpoints();
    SchemaWarmUp.start();
    EmbeddedApiServer.Builder builder = EmbeddedApiServer.builder().host(OperatorConfig.LOOPBACK_ADDRESS).port(port)
        // a load run makes millions of requests: /debug/stats counts them without keeping them
        .requestLogCapacity(10_000)
        .https(!plainHttp);
    if (faults != null) {
      faults.enable(false);
      builder.requestFilter(faults);
    }
    if (dataDir != null) {
      builder.dataDirectory(dataDir);
    }
    EmbeddedApiServer server = builder.start();
    KubernetesClient client = KubernetesClients.unlimited(server.loopbackConfig(), "apiserver");
    EmbeddedCluster cluster = empty
        ? EmbeddedCluster.empty(server, client, operatorNamespace, webhookServiceName, () -> firstListening(endpoints))
        : EmbeddedCluster.install(server, client, operatorNamespace, webhookServiceName,
            () -> firstListening(endpoints));
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      cluster.close();
      client.close();
      server.close();
    }, "trainer-apiserver-shutdown"));
    if (faults != null) {
      faults.enable(!faultsOff);
    }
    server.writeKubeconfig(kubeconfigOut);
    PrintWriter out = streams.out();
    out.println("Embedded API server listening on " + server.url() + " (the kubeconfig's token is cluster-admin)");
    out.println("  kubeconfig   " + kubeconfigOut.toAbsolutePath());
    out.println("  data         " + server.dataDirectory().map(Path::toString).orElse("in memory only"));
    out.println("  webhooks     service " + operatorNamespace + "/" + webhookServiceName + " -> " + endpoints);
    out.println("  runtimes     " + (empty ? "none (--empty)" : String.join(", ", cluster.runtimes())));
    out.println("  faults       " + (faults == null ? "none" : faults + (faultsOff ? " (off until POST "
        + server.url() + "/debug/stats?faults=on)" : "")));
    out.flush();
    new CountDownLatch(1).await();
    return 0;
  }

  private List<InetSocketAddress> endpoints() {
    List<String> given = webhookAddresses.isEmpty()
        ? List.of(OperatorConfig.LOOPBACK_ADDRESS + ":" + OperatorConfig.DEFAULT_WEBHOOK_PORT) : webhookAddresses;
    List<InetSocketAddress> endpoints = new ArrayList<>();
    for (String address : given) {
      int colon = address.lastIndexOf(':');
      try {
        endpoints.add(new InetSocketAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))));
      } catch (RuntimeException e) {
        throw new TypeConversionException("--webhook-address: '" + address + "' is not HOST:PORT");
      }
    }
    return endpoints;
  }

  /** The first endpoint that accepts a TCP connection (the ready ones), else the first (the call then fails). */
  private static InetSocketAddress firstListening(List<InetSocketAddress> endpoints) {
    for (InetSocketAddress endpoint : endpoints) {
      try (Socket probe = new Socket()) {
        probe.connect(endpoint, PROBE_TIMEOUT_MILLIS);
        return endpoint;
      } catch (IOException e) {
        // not listening: the next endpoint
      }
    }
    return endpoints.get(0);
  }
}
