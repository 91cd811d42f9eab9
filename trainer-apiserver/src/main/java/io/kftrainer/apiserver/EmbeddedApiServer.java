package io.kftrainer.apiserver;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesListBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kftrainer.http.EarlyAnswers;
import io.kftrainer.http.ExchangeAttributes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process Kubernetes API server for tests and for the product's {@code local} mode: an in-memory store, kept
 * durable in a data directory on request ({@link Builder#dataDirectory}), behind the JDK's HTTP server, written to answer as kube-apiserver does where kubectl, fabric8 and the Java Operator SDK
 * rely on it.
 *
 * <p>What it serves:
 * <ul>
 *   <li><b>CRUD</b> on the built-in kinds of {@link Discovery} and on the kinds of the stored CustomResourceDefinitions
 *   (anything else answers 404), with {@code generateName}, uid, creationTimestamp, generation on the kinds
 *   kube-apiserver keeps one for ({@link Generation}; bumped when anything outside metadata and status changes), a
 *   global, monotonic resourceVersion, 409 on a stale resourceVersion, {@code dryRun}, status subresources (a
 *   main-resource write keeps status, a /status write changes only status), finalizers and deletionTimestamp, delete
 *   preconditions, ConfigMaps and Secrets of at most 1 MiB ({@link DataSizeValidation}).</li>
 *   <li><b>Lists</b> with label selectors ({@code =}, {@code ==}, {@code !=}, {@code in}, {@code notin}, exists,
 *   {@code !exists}; {@link LabelSelector}), field selectors on the fields kube-apiserver offers per kind
 *   ({@link FieldSelector}, {@link FieldLabels}), {@code limit} and {@code continue}, typed {@code <Kind>List}s.</li>
 *   <li><b>Watches</b> over HTTP streaming ({@link WatchStreams}): resourceVersion semantics, bookmarks,
 *   {@code sendInitialEvents}, 410 Expired for a version older than the history, selectors.</li>
 *   <li><b>Subresources</b>: {@code status}; {@code pods/log} through a {@link PodLogSource}
 *   ({@link Builder#podLogs}); {@code exec}, {@code attach}, {@code portforward} answer 400 "Upgrade request
 *   required"; any other subresource answers 404, and a method a path does not serve 405, with a Status.</li>
 *   <li><b>ServiceAccount tokens</b> ({@link ServiceAccountTokens}): a {@code default} ServiceAccount per namespace
 *   ({@link DefaultServiceAccounts}), {@code serviceaccounts/<name>/token} (TokenRequest), TokenReviews that verify
 *   the token, OIDC discovery and JWKS; access reviews answered by the same RBAC as requests.</li>
 *   <li><b>Garbage collection</b> through ownerReferences, background, foreground and orphan
 *   ({@link GarbageCollector}).</li>
 *   <li><b>Custom resources</b> pruned, defaulted and validated against their CRD's schema and CEL rules (transition
 *   rules included), with kube-apiserver's messages ({@code trainer-schema}'s
 *   {@link io.kftrainer.schema.CustomResourceValidator}).</li>
 *   <li><b>Server-side apply</b> ({@code application/apply-patch+yaml}, YAML or JSON, {@code fieldManager} required):
 *   creates the object when absent, otherwise merges the applied configuration as structured-merge-diff does
 *   ({@link ServerSideApply}): {@code x-kubernetes-list-type: map} lists by key, {@code set} lists by value, atomic
 *   lists whole, the types from the CRDs' schemas and, for built-in kinds, the Kubernetes OpenAPI ({@link MergeTypes}).
 *   {@code metadata.managedFields} holds one Apply entry per manager ({@link ManagedFields}) owning fields, list items
 *   and fields inside items; a value another manager owns is a 409 conflict naming the field unless {@code force},
 *   and what a manager stops applying is removed unless another manager owns it. Writes other than apply own
 *   nothing.</li>
 *   <li><b>JSON merge patch</b> (RFC 7386), <b>JSON patch</b>, and <b>strategic merge patch</b> with each built-in
 *   type's patch merge keys and strategies ({@link io.kftrainer.framework.merge.StrategicMerge}; 415 for custom
 *   resources, as kube-apiserver). No-op writes keep the resourceVersion and send no watch event.</li>
 *   <li><b>{@code fieldValidation}</b> ({@link FieldValidation}) on creates, updates and patches: unknown fields
 *   ({@link UnknownFields}: a built-in kind's by its type, a custom resource's by its CRD's pruning) and repeated
 *   keys ({@link DuplicateFields}) refused with kube-apiserver's 400 or 422 under {@code Strict}, answered as
 *   {@code Warning} headers under {@code Warn} (the default), unknown fields dropped in every mode; an apply of a
 *   field its type does not declare is structured-merge-diff's 500.</li>
 *   <li><b>Admission hooks</b> ({@link #addAdmissionHook}) on create and update: mutating ones before schema
 *       validation, validating ones after it (as kube-apiserver).</li>
 *   <li><b>For kubectl</b>: discovery, {@code /version}, a minimal OpenAPI v3 ({@link OpenApi}), {@code meta.k8s.io/v1
 *   Table}s (lists, objects and watch events), CRDs that report themselves Established, the protobuf bodies of
 *   {@code kubectl create namespace|configmap|secret|serviceaccount|token} ({@link KubernetesProtobuf}).</li>
 *   <li><b>Request accounting</b>: {@link #requests()}, {@link #writes()}, {@link #resetRequests()}, and counts by
 *   client, verb and resource on {@code GET /debug/stats}.</li>
 *   <li><b>A request filter</b> ({@link Builder#requestFilter}, {@link RequestFilter}), where kube-apiserver has the
 *   filters of its handler chain: the test fixtures' fault injector for chaos tests (500, 429, 409, 504 after the
 *   fact, delays, dropped watches).</li>
 * </ul>
 *
 * <p>Concurrency: requests are served concurrently on a thread pool; writes are compare-and-set on the object
 * read, committed under one short lock ({@link Store}), so each object changes atomically and watchers see changes
 * in resourceVersion order.
 *
 * <p>Transport: HTTPS with a self-signed certificate made at start, which the kubeconfig names as its
 * {@code certificate-authority-data} ({@link #certificatePem()}). Plain HTTP on request ({@link Builder#https}), on
 * loopback only, and then for in-process fabric8 clients only: kubectl and client-go send a kubeconfig's credentials
 * over TLS only. Watches are served over HTTP streaming only; {@link #config()} tells fabric8 to use it, and other
 * fabric8 clients fall back to it.
 *
 * <p>Access ({@link AccessControl}): every request needs a bearer token, except the health probes: the server's
 * admin token ({@link #bearerToken()}, random unless {@link Builder#bearerToken} sets it; {@link #config()},
 * {@link #client()} and {@link #writeKubeconfig} carry it) is cluster-admin, and ServiceAccount tokens this server
 * issued get what RBAC bindings grant ({@link RbacAuthorizer}). No token or a wrong one: 401; not allowed: 403.
 * Request bodies over 3 MiB: 413 ({@link RequestBodies}). An answer given before the body is read reaches a client
 * still sending it ({@link EarlyAnswers}). Each request keeps its caller to itself ({@link ExchangeAttributes}): the
 * self reviews of requests served together each name their own.
 *
 * <p>Limits: one version per kind (no conversion), no namespace lifecycle (objects can be created in namespaces that
 * do not exist), built-in kinds are not validated, lists ignore
 * {@code resourceVersion}/{@code resourceVersionMatch} (always the latest state), the watch history holds the last
 * {@link Builder#watchHistory(int)} changes since the server started, pod logs ignore {@code sinceSeconds}, {@code timestamps},
 * {@code previous} and {@code limitBytes}.
 */
public final class EmbeddedApiServer implements AutoCloseable {

  /** The version reported on {@code /version}. */
  public static final String DEFAULT_SERVER_VERSION = "v1.32.0";

  static {
    // The JDK server reads sun.net.httpserver.nodelay once per JVM, at its first server: in local mode and in tests
    // this one comes first, and the operator's webhook server in the same JVM would otherwise keep Nagle on (a
    // ~40 ms stall per response on delayed ACKs). An explicit setting is respected.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final String host;
  private final int requestedPort;
  private final boolean https;
  private final String bearerToken;
  private final String defaultNamespace;
  private final RequestLog requestLog;
  private final RequestFilter filter;
  private final DataDirectory dataDirectory;
  private final Store store;
  private final ApiHandler handler;
  private final GarbageCollector garbageCollector;
  private final DefaultServiceAccounts serviceAccounts;
  private final List<KubernetesClient> clients = new ArrayList<>();
  private HttpServer server;
  /** Plain HTTP on 127.0.0.1 for this process's own clients ({@link #loopbackConfig}), beside an HTTPS server. */
  private HttpServer loopback;
  private final String loopbackToken = Authenticator.randomToken();
  private SelfSignedCertificate certificate;
  private ExecutorService executor;
  private KubernetesClient client;
  private boolean stateClosed;

  private EmbeddedApiServer(Builder builder) {
    this.host = builder.host;
    this.requestedPort = builder.port;
    this.https = builder.https;
    this.bearerToken = builder.bearerToken != null ? builder.bearerToken : Authenticator.randomToken();
    this.defaultNamespace = builder.defaultNamespace;
    this.requestLog = new RequestLog(builder.requestLogCapacity);
    this.dataDirectory = builder.dataDirectory == null ? null : DataDirectory.lock(builder.dataDirectory);
    try {
      this.store = dataDirectory == null ? new Store(builder.watchHistory)
          : new Store(builder.watchHistory, SqliteStorage.open(dataDirectory.database()));
    } catch (RuntimeException e) {
      dataDirectory.close();
      throw e;
    }
    this.filter = builder.filter;
    this.handler = new ApiHandler(requestLog, store, builder.serverVersion, builder.podLogSource,
        builder.bookmarkIntervalMillis, filter,
        dataDirectory == null ? null : dataDirectory.path().resolve(DataDirectory.SIGNING_KEY));
    this.garbageCollector = new GarbageCollector(handler);
    store.addListener(garbageCollector);
    this.serviceAccounts = new DefaultServiceAccounts(handler);
    store.addListener(serviceAccounts);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts an HTTPS server on an ephemeral port of 127.0.0.1. */
  public static EmbeddedApiServer start() {
    return builder().start();
  }

  /** Starts an HTTPS server on {@code host}:{@code port} (0 picks an ephemeral port). */
  public static EmbeddedApiServer start(String host, int port) {
    return builder().host(host).port(port).start();
  }

  private EmbeddedApiServer doStart() {
    InetSocketAddress address;
    try {
      address = new InetSocketAddress(InetAddress.getByName(host), requestedPort);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown host " + host, e);
    }
    if (!https && !address.getAddress().isLoopbackAddress()) {
      throw new IllegalArgumentException("serving on " + host + ", which is not a loopback address, requires HTTPS: "
          + "bearer tokens would cross the network in clear text");
    }
    try {
      if (https) {
        HttpsServer tls = HttpsServer.create(address, 1024);
        certificate = SelfSignedCertificate.create(host);
        tls.setHttpsConfigurator(new HttpsConfigurator(certificate.serverContext()));
        server = tls;
      } else {
        server = HttpServer.create(address, 1024);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on " + host + ":" + requestedPort, e);
    }
    AtomicInteger threads = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread thread = new Thread(r, "apiserver-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
    // unbounded: every open watch and followed log holds a thread
    executor = Executors.newCachedThreadPool(factory);
    AccessControl access = new AccessControl(new Authenticator(bearerToken, loopbackToken, handler.tokens()),
        handler.authorizer());
    // EarlyAnswers first: every answer, the access filter's refusals included, reaches a client still sending;
    // ExchangeAttributes before the access filter, which keeps the caller in the exchange's attributes
    List<Filter> filters = List.of(new EarlyAnswers(), new ExchangeAttributes(), access);
    server.setExecutor(executor);
    server.createContext("/", handler).getFilters().addAll(filters);
    if (https) {
      try {
        loopback = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
      } catch (IOException e) {
        server.stop(0);
        throw new UncheckedIOException("cannot listen on the loopback address", e);
      }
      loopback.setExecutor(executor);
      loopback.createContext("/", handler).getFilters().addAll(filters);
      loopback.start();
    }
    server.start();
    return this;
  }

  /** The base URL, e.g. {@code https://127.0.0.1:41234}. */
  public String url() {
    return (https ? "https" : "http") + "://" + urlHost() + ":" + port();
  }

  private String urlHost() {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** A client configuration for this server (default namespace {@code default} unless the builder said otherwise). */
  public Config config() {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url())
        .withOauthToken(bearerToken)
        .withNamespace(defaultNamespace)
        .withTrustCerts(true)
        .withDisableHostnameVerification(true)
        .withHttp2Disable(true)
        // this server streams watches over HTTP (as kube-apiserver does for client-go), it has no WebSocket
        .withOnlyHttpWatches(true)
        // the embedded server's errors are deterministic: retrying 5xx answers only slows failures down
        .withRequestRetryBackoffLimit(0)
        .build();
  }

  /**
   * A client configuration for clients in this process (controllers embedding this server, as {@code local}'s
   * operator and executor): plain HTTP on 127.0.0.1 with a token that never leaves the process (user
   * {@code system:apiserver}, cluster-admin), as kube-apiserver's own loopback client has one. It spares them a
   * TLS handshake per connection (each watch is one) and the encryption of every request: a fifth of
   * {@code local}'s CPU to its banner. The same as {@link #config()} when the server serves plain HTTP.
   */
  public Config loopbackConfig() {
    if (loopback == null) {
      return config();
    }
    return new ConfigBuilder(config())
        .withMasterUrl("http://" + loopback.getAddress().getAddress().getHostAddress() + ":"
            + loopback.getAddress().getPort())
        .withOauthToken(loopbackToken)
        .build();
  }

  /**
   * The admin's bearer token (cluster-admin). A secret: hand it to clients through {@link #config()} or the
   * kubeconfig ({@link #writeKubeconfig}), never print it.
   */
  public String bearerToken() {
    return bearerToken;
  }

  /** The server's certificate in PEM (its own CA), to trust; null over plain HTTP. */
  public String certificatePem() {
    return certificate == null ? null : certificate.pem();
  }

  /** A TLS context that trusts this server's certificate (and nothing else), for raw HTTPS clients. */
  public javax.net.ssl.SSLContext trustingSslContext() {
    if (certificate == null) {
      throw new IllegalStateException("this server serves plain HTTP");
    }
    return certificate.clientContext();
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
   * Writes a kubeconfig for kubectl (and other clients) with one cluster, user (the admin's bearer token) and
   * context named {@code embedded}, the current context, and the default namespace. The file is readable by its
   * owner only (0600, where the file system has POSIX permissions), as it holds a credential. Returns {@code file}.
   */
  public Path writeKubeconfig(Path file) {
    String yaml = "apiVersion: v1\n"
        + "kind: Config\n"
        + "clusters:\n"
        + "- name: embedded\n"
        + "  cluster:\n"
        + "    server: " + url() + "\n"
        + (https ? "    certificate-authority-data: " + java.util.Base64.getEncoder().encodeToString(
            certificate.pem().getBytes(java.nio.charset.StandardCharsets.US_ASCII)) + "\n" : "")
        + "users:\n"
        + "- name: embedded\n"
        + "  user:\n"
        + "    token: " + bearerToken + "\n"
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
      PrivateFiles.write(file, yaml);
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

  /**
   * The filter in front of this server's resource requests ({@link Builder#requestFilter}; {@link RequestFilter#NONE}
   * by default). What it did and the requests by client, verb and resource are served as JSON on
   * {@code GET /debug/stats}.
   */
  public RequestFilter requestFilter() {
    return filter;
  }

  /** Adds a hook called on create and update requests; see {@link AdmissionHook}. */
  public EmbeddedApiServer addAdmissionHook(AdmissionHook hook) {
    handler.addHook(hook);
    return this;
  }

  public boolean removeAdmissionHook(AdmissionHook hook) {
    return handler.removeHook(hook);
  }

  /** Removes every stored object (CRDs included) and the recorded requests; hooks stay. */
  public void clear() {
    handler.reset();
    requestLog.clear();
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
      server.stop(0);
      if (loopback != null) {
        loopback.stop(0);
        loopback = null;
      }
      executor.shutdownNow();
      garbageCollector.close();
      serviceAccounts.close();
      server = null;
    }
    if (!stateClosed) {
      stateClosed = true;
      store.close();
      if (dataDirectory != null) {
        dataDirectory.close();
      }
    }
  }

  /** The directory of the durable state ({@link Builder#dataDirectory}), or empty when the state is in memory. */
  public java.util.Optional<Path> dataDirectory() {
    return java.util.Optional.ofNullable(dataDirectory).map(DataDirectory::path);
  }

  /** Options for {@link EmbeddedApiServer}. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private boolean https = true;
    private String bearerToken;
    private String defaultNamespace = "default";
    private String serverVersion = DEFAULT_SERVER_VERSION;
    private int requestLogCapacity = 100_000;
    private int watchHistory = 100_000;
    private long bookmarkIntervalMillis = 10_000;
    private PodLogSource podLogSource;
    private RequestFilter filter = RequestFilter.NONE;
    private Path dataDirectory;

    private Builder() {
    }

    /**
     * Keeps the objects and the resourceVersion counter in {@code directory} (created if needed, private to the
     * user), in a SQLite database, and starts from what it holds: objects, resourceVersions that go on from the last
     * one, and watches from before the restart answered 410 Expired. A write is durable once answered. One server at
     * a time: the directory is locked while the server runs. Default: none, the state is in memory only.
     *
     * @throws IllegalStateException at {@link #start} when another process holds the directory, or its database was
     *                               written by a newer schema
     */
    public Builder dataDirectory(Path directory) {
      this.dataDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** The filter in front of the resource requests ({@link RequestFilter}); default {@link RequestFilter#NONE}. */
    public Builder requestFilter(RequestFilter requestFilter) {
      this.filter = Objects.requireNonNull(requestFilter);
      return this;
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

    /**
     * Serve HTTPS with a self-signed certificate (default true); false serves plain HTTP, on loopback only, for
     * in-process fabric8 clients: kubectl and client-go do not send credentials over plain HTTP.
     */
    public Builder https(boolean https) {
      this.https = https;
      return this;
    }

    /**
     * The admin's bearer token, e.g. one kept from an earlier run so that its kubeconfig stays valid; default a new
     * random token (256 bits).
     */
    public Builder bearerToken(String token) {
      if (token == null || token.isBlank() || token.chars().anyMatch(c -> c <= ' ' || c >= 127)) {
        throw new IllegalArgumentException("a bearer token is a non-empty string of printable ASCII characters");
      }
      this.bearerToken = token;
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

    /** Where {@code GET pods/NAME/log} reads logs; without a source every log request answers 404. */
    public Builder podLogs(PodLogSource source) {
      this.podLogSource = Objects.requireNonNull(source);
      return this;
    }

    /**
     * How many changes the server keeps for watches that resume from a resourceVersion; older versions get
     * 410 Expired. Default 100,000.
     */
    public Builder watchHistory(int changes) {
      if (changes < 1) {
        throw new IllegalArgumentException("watch history must hold at least one change");
      }
      this.watchHistory = changes;
      return this;
    }

    /** How often watches with {@code allowWatchBookmarks=true} get a BOOKMARK; default 10 s. */
    public Builder bookmarkInterval(java.time.Duration interval) {
      this.bookmarkIntervalMillis = Math.max(1, interval.toMillis());
      return this;
    }

    public EmbeddedApiServer start() {
      EmbeddedApiServer server = new EmbeddedApiServer(this);
      try {
        return server.doStart();
      } catch (RuntimeException e) {
        server.close();
        throw e;
      }
    }
  }
}
