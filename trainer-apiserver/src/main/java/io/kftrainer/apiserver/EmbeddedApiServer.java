package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesListBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An in-process Kubernetes API server for tests and for the product's {@code local} mode: fabric8's
 * {@link KubernetesMockServer} in CRUD mode with the gaps that matter for an operator closed.
 *
 * <p>What it adds to the fabric8 mock:
 * <ul>
 *   <li><b>Server-side apply</b> ({@code PATCH}, {@code application/apply-patch+yaml}, body in YAML or JSON,
 *   {@code fieldManager} required, {@code force} accepted): creates the object when absent (201), otherwise merges the
 *   applied configuration onto it with JSON merge patch semantics (maps merge recursively, lists and scalars are
 *   replaced, {@code null} removes). A main-resource apply leaves {@code status} alone when the kind has a status
 *   subresource; an apply to {@code /status} changes only status. {@code uid} and {@code creationTimestamp} stay,
 *   {@code resourceVersion} changes, {@code generation} increases when something outside metadata and status changed,
 *   watchers get ADDED/MODIFIED. An apply that changes nothing keeps the resourceVersion and sends no watch event.
 *   <em>This is an approximation of server-side apply:</em> there is no conflict detection ({@code force} is
 *   ignored, two managers never conflict), fields a manager stops applying are <em>not</em> removed, and lists marked
 *   {@code x-kubernetes-list-type: map/set} are replaced rather than merged by key. {@code metadata.managedFields}
 *   only records, per manager, the fields it last applied ({@link ManagedFields}), for clients that read it such as
 *   the Java Operator SDK's SSA matcher.</li>
 *   <li><b>JSON merge patch</b> per RFC 7386 ({@code null} removes a key, arrays are replaced), and <b>strategic merge
 *   patch</b> approximated by {@link Patches#strategicMergePatch} (lists of objects merged on a guessed key such as
 *   {@code name}) instead of the mock's 415; JSON patch as before. No-op patches keep the resourceVersion.</li>
 *   <li><b>Request accounting</b>: {@link #requests()}, {@link #writes()}, {@link #resetRequests()}.</li>
 *   <li><b>For kubectl</b>: discovery ({@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/G/V} computed from
 *   the stored CRDs, {@code /version}), a minimal OpenAPI v3 index ({@link OpenApi}) so that kubectl validates on the
 *   server side, {@code meta.k8s.io/v1 Table}s for {@code kubectl get} with the CRDs' printer columns, Status bodies on
 *   404, CRDs that report themselves Established, and the protobuf bodies of {@code kubectl create
 *   namespace|configmap|secret|serviceaccount} ({@link KubernetesProtobuf}; other {@code kubectl create KIND}
 *   generators, which also send protobuf, get 415: pipe them through {@code --dry-run=client -o yaml | kubectl
 *   create -f -}).</li>
 *   <li><b>Admission hooks</b> ({@link #addAdmissionHook}) run on POST, PUT and PATCH before storing.</li>
 * </ul>
 *
 * <p>Transport: plain HTTP by default (kubectl, curl and the fabric8 client need no certificates). The mock can serve
 * HTTPS with a self-signed certificate ({@link Builder#https(boolean)}); the kubeconfig then skips verification.
 * There is no authentication or authorization. Requests are served one at a time on a Vert.x event-loop thread.
 *
 * <p>Other limits, inherited from the fabric8 mock: one version per kind (no conversion), no garbage collection
 * of dependents, no namespace lifecycle (objects can be created in namespaces that do not exist), no validation
 * against the CRD schema, no defaulting, set-based label selectors ignored, field selectors only on
 * {@code metadata.name}/{@code metadata.namespace}, {@code limit}/{@code continue} ignored, watches only over WebSocket
 * (kubectl watches over HTTP streaming: {@code kubectl get -w} fails and {@code kubectl wait} only sees the state at
 * its start) and replaying every object as ADDED, DELETE answers the object as it was before deletion.
 */
public final class EmbeddedApiServer implements AutoCloseable {

  /** The version reported on {@code /version}. */
  public static final String DEFAULT_SERVER_VERSION = "v1.32.0";

  /** The request logger of fabric8's MockWebServer logs every request at INFO through JUL: keep it quiet. */
  private static final Logger MOCK_WEB_SERVER_LOGGER = Logger.getLogger(MockWebServer.class.getName());

  private final String host;
  private final int port;
  private final boolean https;
  private final String defaultNamespace;
  private final RequestLog requestLog;
  private final ApiServerDispatcher dispatcher;
  private final List<KubernetesClient> clients = new ArrayList<>();
  private KubernetesMockServer server;
  private KubernetesClient client;

  private EmbeddedApiServer(Builder builder) {
    this.host = builder.host;
    this.port = builder.port;
    this.https = builder.https;
    this.defaultNamespace = builder.defaultNamespace;
    this.requestLog = new RequestLog(builder.requestLogCapacity);
    this.dispatcher = new ApiServerDispatcher(requestLog, builder.serverVersion);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts a plain HTTP server on an ephemeral port of 127.0.0.1. */
  public static EmbeddedApiServer start() {
    return builder().start();
  }

  /** Starts a plain HTTP server on {@code host}:{@code port} (0 picks an ephemeral port). */
  public static EmbeddedApiServer start(String host, int port) {
    return builder().host(host).port(port).start();
  }

  private EmbeddedApiServer doStart() {
    if (!MOCK_WEB_SERVER_LOGGER.isLoggable(Level.FINE)) {
      MOCK_WEB_SERVER_LOGGER.setLevel(Level.WARNING);
    }
    server = new KubernetesMockServer(new Context(Json.MAPPER), new MockWebServer(), new HashMap<>(),
        dispatcher, https);
    try {
      server.start(InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown host " + host, e);
    }
    // MockWebServer keeps every request in a queue we never read: drain it so a long-lived server does not leak
    KubernetesMockServer mock = server;
    dispatcher.setAfterRequest(() -> {
      try {
        while (mock.takeRequest(0, TimeUnit.MILLISECONDS) != null) {
          // discard
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    return this;
  }

  /** The base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String url() {
    return (https ? "https" : "http") + "://" + urlHost() + ":" + port();
  }

  private String urlHost() {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  public int port() {
    return server.getPort();
  }

  /** A client configuration for this server (default namespace {@code default} unless the builder said otherwise). */
  public Config config() {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url())
        .withNamespace(defaultNamespace)
        .withTrustCerts(true)
        .withDisableHostnameVerification(true)
        .withHttp2Disable(true)
        // the embedded server's errors are deterministic: retrying 5xx answers only slows failures down
        .withRequestRetryBackoffLimit(0)
        .build();
  }

  /** The shared client for this server, created on first use and closed with the server. */
  public synchronized KubernetesClient client() {
    if (client == null) {
      client = newClient();
    }
    return client;
  }

  /** A new client for this server; it is closed with the server (closing it earlier is fine). */
  public synchronized KubernetesClient newClient() {
    KubernetesClient created = new KubernetesClientBuilder().withConfig(config()).build();
    clients.add(created);
    return created;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // CRDs

  /** Creates (or server-side applies over) the CRDs of a YAML or JSON stream (multi-document YAML is fine). */
  public List<CustomResourceDefinition> installCrds(InputStream yamlOrJson) {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (HasMetadata item : client().load(yamlOrJson).items()) {
      if (item instanceof CustomResourceDefinition) {
        crds.add((CustomResourceDefinition) item);
      } else {
        throw new IllegalArgumentException("not a v1 CustomResourceDefinition: " + item.getKind() + " "
            + item.getMetadata().getName());
      }
    }
    return installCrds(crds);
  }

  /** Reads CRDs from a file, or from every {@code .yaml}/{@code .yml}/{@code .json} file of a directory. */
  public List<CustomResourceDefinition> installCrds(Path fileOrDirectory) {
    List<CustomResourceDefinition> installed = new ArrayList<>();
    try {
      List<Path> files = new ArrayList<>();
      if (Files.isDirectory(fileOrDirectory)) {
        try (var stream = Files.list(fileOrDirectory)) {
          stream.filter(p -> p.getFileName().toString().matches(".*\\.(ya?ml|json)")).sorted().forEach(files::add);
        }
      } else {
        files.add(fileOrDirectory);
      }
      for (Path file : files) {
        try (InputStream in = Files.newInputStream(file)) {
          installed.addAll(installCrds(in));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return installed;
  }

  /** Server-side applies the CRDs (creating or updating them); returns them as stored. */
  public List<CustomResourceDefinition> installCrds(List<CustomResourceDefinition> crds) {
    List<CustomResourceDefinition> stored = new ArrayList<>();
    for (CustomResourceDefinition crd : crds) {
      CustomResourceDefinition copy = Serialization.clone(crd);
      copy.getMetadata().setResourceVersion(null);
      copy.getMetadata().setManagedFields(null);
      stored.add(client().apiextensions().v1().customResourceDefinitions().resource(copy)
          .fieldManager("embedded-apiserver").forceConflicts().serverSideApply());
    }
    return stored;
  }

  /** Creates or updates (server-side apply) arbitrary objects, e.g. namespaces or runtimes, for tests. */
  public List<HasMetadata> apply(HasMetadata... objects) {
    return client().resourceList(new KubernetesListBuilder().addToItems(objects).build())
        .fieldManager("embedded-apiserver").forceConflicts().serverSideApply();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // kubeconfig

  /**
   * Writes a kubeconfig for kubectl (and other clients) with one cluster, user and context named
   * {@code embedded}, the current context, and the default namespace. Returns {@code file}.
   */
  public Path writeKubeconfig(Path file) {
    String yaml = "apiVersion: v1\n"
        + "kind: Config\n"
        + "clusters:\n"
        + "- name: embedded\n"
        + "  cluster:\n"
        + "    server: " + url() + "\n"
        + (https ? "    insecure-skip-tls-verify: true\n" : "")
        + "users:\n"
        + "- name: embedded\n"
        + "  user: {}\n"
        + "contexts:\n"
        + "- name: embedded\n"
        + "  context:\n"
        + "    cluster: embedded\n"
        + "    user: embedded\n"
        + "    namespace: " + defaultNamespace + "\n"
        + "current-context: embedded\n"
        + "preferences: {}\n";
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // requests and hooks

  /** Every request received since start or the last {@link #resetRequests()}, oldest first (bounded, see builder). */
  public List<ApiRequest> requests() {
    return requestLog.snapshot();
  }

  /** The POST, PUT, PATCH and DELETE requests among {@link #requests()}. */
  public List<ApiRequest> writes() {
    return requestLog.snapshot().stream().filter(ApiRequest::isWrite).toList();
  }

  public void resetRequests() {
    requestLog.clear();
  }

  /** Adds a hook called on create and update requests; see {@link AdmissionHook}. */
  public EmbeddedApiServer addAdmissionHook(AdmissionHook hook) {
    dispatcher.addHook(hook);
    return this;
  }

  public boolean removeAdmissionHook(AdmissionHook hook) {
    return dispatcher.removeHook(hook);
  }

  /** Removes every stored object (CRDs included) and the recorded requests; hooks stay. */
  public void clear() {
    dispatcher.reset();
    requestLog.clear();
  }

  /** The underlying fabric8 mock server, for expectations or anything this class does not cover. */
  public KubernetesMockServer mockServer() {
    return server;
  }

  @Override
  public synchronized void close() {
    for (KubernetesClient c : clients) {
      try {
        c.close();
      } catch (RuntimeException e) {
        // closing anyway
      }
    }
    clients.clear();
    client = null;
    if (server != null) {
      server.shutdown();
      server = null;
    }
  }

  /** Options for {@link EmbeddedApiServer}. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private boolean https;
    private String defaultNamespace = "default";
    private String serverVersion = DEFAULT_SERVER_VERSION;
    private int requestLogCapacity = 100_000;

    private Builder() {
    }

    /** The address to listen on; default {@code 127.0.0.1}. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host);
      return this;
    }

    /** The port; default 0 (ephemeral). */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** Serve HTTPS with a self-signed certificate instead of plain HTTP; default false. */
    public Builder https(boolean https) {
      this.https = https;
      return this;
    }

    /** The namespace of {@link #client()} and of the kubeconfig context; default {@code default}. */
    public Builder defaultNamespace(String namespace) {
      this.defaultNamespace = Objects.requireNonNull(namespace);
      return this;
    }

    /** The {@code gitVersion} reported on {@code /version}; default {@link #DEFAULT_SERVER_VERSION}. */
    public Builder serverVersion(String version) {
      this.serverVersion = Objects.requireNonNull(version);
      return this;
    }

    /** How many requests {@link #requests()} keeps (oldest dropped first); 0 disables recording. */
    public Builder requestLogCapacity(int capacity) {
      this.requestLogCapacity = capacity;
      return this;
    }

    public EmbeddedApiServer start() {
      return new EmbeddedApiServer(this).doStart();
    }
  }
}
