package io.kftrainer.lab;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamedAuthInfoBuilder;
import io.fabric8.kubernetes.api.model.NamedClusterBuilder;
import io.fabric8.kubernetes.api.model.NamedContextBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kftrainer.webhook.cert.CertificateAuthority;
import io.kftrainer.webhook.cert.CertificateIssuer;
import io.kftrainer.webhook.cert.Pem;
import io.kftrainer.webhook.cert.ServingCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/**
 * A real Kubernetes control plane on 127.0.0.1, as processes of this JVM: etcd, kube-apiserver (RBAC, the default
 * admission plugins, a service-account issuer and signing key, so TokenRequest and TokenReview work),
 * kube-controller-manager (garbage collector, Job, namespace, service-account controllers and the rest of its
 * defaults), kube-scheduler, kwok playing the kubelets of a pool of nodes (pods run and end by kwok's stages), and
 * the JobSet controller with its CRD and webhooks. Nothing listens on another address; every component dies with
 * this JVM ({@link LabProcess}).
 *
 * <p>Authentication: a static admin token ({@code system:masters}) for the lab's own components and the tests;
 * anything else authenticates as a ServiceAccount with a token from {@link #serviceAccountToken}.
 */
public final class Lab implements AutoCloseable {

  /** The nodes kwok manages: this label, and the capacity {@link #NODE_CAPACITY} each. */
  public static final String NODE_LABEL = "type";
  public static final String NODE_LABEL_VALUE = "kwok";
  public static final Map<String, String> NODE_CAPACITY = Map.of("cpu", "32", "memory", "256Gi",
      "nvidia.com/gpu", "8", "pods", "110", "ephemeral-storage", "1Ti");
  /** The service-account issuer and the API audience. */
  public static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
  /** JobSet's CRD and webhook configurations, in the names the lab gives them. */
  public static final String JOBSET_NAMESPACE = "jobset-system";
  /** On a pod owned by a Job: how long kwok keeps it Running before it Succeeds (a duration: {@code "5s"}). */
  public static final String COMPLETION_DELAY_ANNOTATION = "pod-complete.stage.kwok.x-k8s.io/delay";
  /** PersistentVolumes of 100Gi the lab offers to claims without a StorageClass. */
  public static final int VOLUMES = 8;

  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final String ADMIN = "lab-admin";
  /** The revision in the header of an answer of etcd's JSON gateway. */

  private final LabBinaries binaries;
  private final Path work;
  private final List<LabProcess> processes = new ArrayList<>();
  private final CertificateIssuer issuer = new CertificateIssuer(Clock.systemUTC());
  private final CertificateAuthority ca;
  private final String adminToken;
  private final int apiServerPort;
  private final Duration startup;
  /** The client flags of kube-controller-manager and kube-scheduler ({@link #startForScale}), or none. */
  private final List<String> clientLimits;
  private URI etcdUrl;
  private KubernetesClient admin;

  private Lab(LabBinaries binaries, Path work, int nodes, boolean unlimitedClients) throws Exception {
    this.binaries = binaries;
    this.clientLimits = unlimitedClients ? List.of("--kube-api-qps", "5000", "--kube-api-burst", "10000") : List.of();
    this.work = Files.createDirectories(work);
    this.ca = issuer.newAuthority();
    this.adminToken = HexFormat.of().formatHex(new SecureRandom().generateSeed(24));
    this.apiServerPort = LabPorts.free();
    long start = System.nanoTime();
    try {
      int etcdPort = startEtcd();
      startApiServer(etcdPort);
      this.admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(
          Files.readString(adminKubeconfig()))).build();
      startControllerManager();
      startScheduler();
      startKwok(nodes);
      startJobSet();
    } catch (Exception | Error e) {
      close();
      throw e;
    }
    this.startup = Duration.ofNanos(System.nanoTime() - start);
  }

  /**
   * Starts a lab in {@code work} (its data, configuration and logs) with {@code nodes} kwok nodes, and waits until
   * every component is ready: the API server answers {@code /readyz}, the nodes are Ready, the default
   * ServiceAccount exists, JobSet's webhooks admit.
   */
  public static Lab start(LabBinaries binaries, Path work, int nodes) throws Exception {
    return new Lab(binaries, work, nodes, false);
  }

  /**
   * {@link #start}, with kube-controller-manager and kube-scheduler free of their client rate limits (QPS 5,000,
   * burst 10,000, as kwokctl's {@code --disable-qps-limits} gives them; kwok's own client has none), for bursts
   * that measure the controller under test: at its default 20 QPS the controller manager's Job controller (two pods
   * created, their finalizers removed, a few Job status writes per TrainJob) ends about 2.5 TrainJobs a second,
   * whatever the controller before it does.
   */
  public static Lab startForScale(LabBinaries binaries, Path work, int nodes) throws Exception {
    return new Lab(binaries, work, nodes, true);
  }

  /** How long {@link #start} took. */
  public Duration startup() {
    return startup;
  }

  /** The versions of the components: {@code kubernetes}, {@code etcd}, {@code kwok}, {@code jobset}. */
  public Properties versions() {
    return binaries.versions();
  }

  /** The API server's address. */
  public URI url() {
    return URI.create("https://127.0.0.1:" + apiServerPort);
  }

  /** The lab's CA: it signed the API server's certificate and signs the webhook certificates of {@link #issue}. */
  public X509Certificate caCertificate() {
    return ca.certificate();
  }

  /** The CA's certificate in PEM, for a webhook configuration's {@code caBundle} or a kubeconfig. */
  public String caPem() {
    return Pem.encode(List.of(ca.certificate()));
  }

  /** A serving certificate from the lab's CA for {@code names} (DNS names or IP addresses). */
  public ServingCertificate issue(List<String> names) {
    return issuer.issue(ca, names, List.of(ca.certificate()));
  }

  /** Writes {@code certificate} as {@code tls.crt} and {@code tls.key} into {@code dir} (a cert directory). */
  public static void writeCertDir(ServingCertificate certificate, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("tls.crt"), certificate.certificatePem());
    Files.writeString(dir.resolve("tls.key"), certificate.keyPem());
  }

  /** A kubeconfig of the cluster's admin ({@code system:masters}). */
  public Path adminKubeconfig() {
    return work.resolve("admin.kubeconfig");
  }

  /** A client as the cluster's admin; closed with the lab. */
  public KubernetesClient admin() {
    return admin;
  }

  /**
   * A token of ServiceAccount {@code namespace/name} from the TokenRequest API (audience: the API server),
   * valid for {@code validity}.
   */
  public String serviceAccountToken(String namespace, String name, Duration validity) {
    return admin.serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().withAudiences(ISSUER).withExpirationSeconds(validity.toSeconds()).endSpec().build())
        .getStatus().getToken();
  }

  /** Writes a kubeconfig that authenticates with {@code token} to {@code file}, and returns it. */
  public Path kubeconfig(Path file, String user, String token, String namespace) throws IOException {
    io.fabric8.kubernetes.api.model.Config config = new io.fabric8.kubernetes.api.model.ConfigBuilder()
        .withApiVersion("v1").withKind("Config")
        .withClusters(new NamedClusterBuilder().withName("lab").withNewCluster().withServer(url().toString())
            .withCertificateAuthorityData(base64(caPem())).endCluster().build())
        .withUsers(new NamedAuthInfoBuilder().withName(user).withNewUser().withToken(token).endUser().build())
        .withContexts(new NamedContextBuilder().withName("lab").withNewContext().withCluster("lab").withUser(user)
            .withNamespace(namespace).endContext().build())
        .withCurrentContext("lab").build();
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, Serialization.asYaml(config));
    return file;
  }

  /**
   * Waits until discovery serves {@code kind} of {@code apiVersion} (a custom resource just installed). A CRD is in
   * discovery a moment after it is Established, and fabric8 finds a generic kind through discovery: a first call in
   * that moment fails with "Could not find the metadata for the given apiVersion and kind" (it failed a CI run so).
   */
  public void awaitServed(String apiVersion, String kind, Duration timeout) {
    Awaitility.await("discovery serves " + apiVersion + " " + kind).atMost(timeout)
        .pollInterval(Duration.ofMillis(100)).until(() -> served(apiVersion, kind));
  }

  private boolean served(String apiVersion, String kind) {
    try {
      return admin.genericKubernetesResources(apiVersion, kind).inAnyNamespace().list() != null;
    } catch (KubernetesClientException notYet) {
      return false;
    }
  }

  /**
   * Compacts etcd's history up to its current revision, as kube-apiserver does every 5 minutes
   * ({@code --etcd-compaction-interval}): a watch that kube-apiserver serves from etcd (a kind it does not cache,
   * such as {@code events}) from an older resourceVersion is then answered 410 Expired. Returns the revision.
   */
  public long compactEtcd() throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> range = http.send(HttpRequest.newBuilder(etcdUrl.resolve("/v3/kv/range"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"AA==\",\"count_only\":true}")).build(),
        HttpResponse.BodyHandlers.ofString());
    // etcd's JSON gateway writes int64 fields as strings
    String revision = range.statusCode() != 200 ? "" : Serialization.jsonMapper().readTree(range.body())
        .path("header").path("revision").asText();
    if (!revision.matches("\\d+")) {
      throw new IOException("etcd did not tell its revision: " + range.statusCode() + " " + range.body());
    }
    long current = Long.parseLong(revision);
    HttpResponse<String> compaction = http.send(HttpRequest.newBuilder(etcdUrl.resolve("/v3/kv/compaction"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"revision\":\"" + current + "\",\"physical\":true}"))
        .build(),
        HttpResponse.BodyHandlers.ofString());
    if (compaction.statusCode() != 200) {
      throw new IOException("etcd refused the compaction: " + compaction.statusCode() + " " + compaction.body());
    }
    return current;
  }

  /**
   * kube-apiserver's audit log: one JSON {@code Event} (audit.k8s.io/v1) per line, for every request of a service
   * account, with {@code user.username}, {@code verb}, {@code objectRef} and {@code responseStatus.code}.
   */
  public Path auditLog() {
    return work.resolve("apiserver/audit.log");
  }

  /** Where the components' logs are: {@code <component>.log}. */
  public Path logs() {
    return work.resolve("logs");
  }

  /** The lab's working directory. */
  public Path work() {
    return work;
  }

  /** A file of the lab's data ({@code .ci/build-lab} copied it from the components' modules). */
  public Path data(String path) {
    return binaries.data().resolve(path);
  }

  private int startEtcd() throws Exception {
    int client = LabPorts.free();
    int peer = LabPorts.free();
    String peerUrl = "http://127.0.0.1:" + peer;
    String clientUrl = "http://127.0.0.1:" + client;
    LabProcess etcd = launch("etcd", List.of(binaries.command("etcd").toString(), "--name", "lab",
        "--data-dir", work.resolve("etcd").toString(),
        "--listen-client-urls", clientUrl, "--advertise-client-urls", clientUrl,
        "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
        "--initial-cluster", "lab=" + peerUrl,
        "--unsafe-no-fsync", "--log-level", "warn"));
    this.etcdUrl = URI.create(clientUrl);
    HttpClient http = HttpClient.newHttpClient();
    await("etcd answers /health", etcd, () -> {
      HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(clientUrl + "/health"))
          .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
      return health.statusCode() == 200 && health.body().contains("\"health\":\"true\"");
    });
    return client;
  }

  private void startApiServer(int etcdPort) throws Exception {
    int port = apiServerPort;
    Path dir = Files.createDirectories(work.resolve("apiserver"));
    ServingCertificate serving = issue(List.of("localhost", "127.0.0.1", "kubernetes", "kubernetes.default",
        "kubernetes.default.svc", "kubernetes.default.svc.cluster.local", "10.96.0.1"));
    writeCertDir(serving, dir);
    Files.writeString(dir.resolve("ca.crt"), caPem());
    // the service-account signing key (ECDSA P-256: ES256 tokens) and its public key, which verifies them
    ServingCertificate serviceAccounts = issue(List.of("service-accounts"));
    Files.writeString(dir.resolve("sa.key"), Pem.encode(serviceAccounts.key()));
    Files.writeString(dir.resolve("sa.pub"), pem(serviceAccounts.certificate().getPublicKey()));
    Files.writeString(dir.resolve("tokens.csv"), adminToken + "," + ADMIN + "," + ADMIN + ",\"system:masters\"\n");
    kubeconfig(adminKubeconfig(), ADMIN, adminToken, "default");
    // every request of a service account, with its answer: the cluster suite checks that none was forbidden
    Files.writeString(dir.resolve("audit-policy.yaml"), """
        apiVersion: audit.k8s.io/v1
        kind: Policy
        omitStages: [RequestReceived, ResponseStarted]
        rules:
        - level: Metadata
          userGroups: ["system:serviceaccounts"]
        - level: None
        """);

    LabProcess apiServer = launch("kube-apiserver", List.of(binaries.command("kube-apiserver").toString(),
        "--etcd-servers", "http://127.0.0.1:" + etcdPort,
        "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", Integer.toString(port),
        "--cert-dir", dir.toString(),
        "--tls-cert-file", dir.resolve("tls.crt").toString(),
        "--tls-private-key-file", dir.resolve("tls.key").toString(),
        "--client-ca-file", dir.resolve("ca.crt").toString(),
        "--token-auth-file", dir.resolve("tokens.csv").toString(),
        "--authorization-mode", "RBAC",
        "--service-account-issuer", ISSUER, "--api-audiences", ISSUER,
        "--service-account-key-file", dir.resolve("sa.pub").toString(),
        "--service-account-signing-key-file", dir.resolve("sa.key").toString(),
        "--service-cluster-ip-range", "10.96.0.0/16",
        "--audit-policy-file", dir.resolve("audit-policy.yaml").toString(),
        "--audit-log-path", auditLog().toString(), "--audit-log-format", "json", "--audit-log-maxsize", "0",
        "--allow-privileged=true", "--profiling=false", "--v=1"));
    HttpClient http = HttpClient.newBuilder().sslContext(trusting(ca.certificate())).build();
    await("kube-apiserver answers /readyz", apiServer, () -> http.send(
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/readyz"))
            .header("Authorization", "Bearer " + adminToken).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
  }

  private void startControllerManager() throws Exception {
    Path dir = work.resolve("apiserver");
    List<String> command = new ArrayList<>(List.of(binaries.command("kube-controller-manager").toString(),
        "--kubeconfig", adminKubeconfig().toString(),
        "--bind-address", "127.0.0.1", "--secure-port", "0", "--leader-elect=false",
        "--service-account-private-key-file", dir.resolve("sa.key").toString(),
        "--root-ca-file", dir.resolve("ca.crt").toString(),
        "--cluster-name", "lab", "--v=1"));
    command.addAll(clientLimits);
    LabProcess manager = launch("kube-controller-manager", command);
    await("the ServiceAccount default/default exists", manager,
        () -> admin.serviceAccounts().inNamespace("default").withName("default").get() != null);
  }

  private void startScheduler() throws IOException {
    List<String> command = new ArrayList<>(List.of(binaries.command("kube-scheduler").toString(),
        "--kubeconfig", adminKubeconfig().toString(),
        "--bind-address", "127.0.0.1", "--secure-port", "0", "--leader-elect=false", "--v=1"));
    command.addAll(clientLimits);
    launch("kube-scheduler", command);
  }

  private void startKwok(int nodes) throws Exception {
    Path stages = work.resolve("kwok-stages.yaml");
    StringBuilder documents = new StringBuilder();
    for (String set : List.of("node/fast", "node/heartbeat", "pod/fast", "pod/chaos")) {
      try (Stream<Path> files = Files.list(binaries.data().resolve("kwok").resolve(set))) {
        for (Path file : files.sorted().toList()) {
          String stage = Files.readString(file);
          documents.append("---\n").append(set.equals("pod/fast") && file.getFileName().toString()
              .equals("pod-complete.yaml") ? withCompletionDelay(stage) : stage).append('\n');
        }
      }
    }
    Files.writeString(stages, documents);
    LabProcess kwok = launch("kwok", List.of(binaries.command("kwok").toString(),
        "--kubeconfig", adminKubeconfig().toString(), "--config", stages.toString(),
        "--manage-nodes-with-label-selector", NODE_LABEL + "=" + NODE_LABEL_VALUE,
        "--node-ip", "127.0.0.1", "--cidr", "10.244.0.1/16", "--server-address", "127.0.0.1:" + LabPorts.free()));
    for (int i = 0; i < nodes; i++) {
      admin.nodes().resource(node("kwok-node-" + i)).create();
    }
    // claims are bound by the controller manager's binder to these (no StorageClass, so none is provisioned).
    // kwok's volume stages are not used: their CEL selectors crash kwok v0.8.0 now and then ("fatal error:
    // concurrent map writes" in easycel's type registry, when its PV and PVC controllers start together)
    for (int i = 0; i < VOLUMES; i++) {
      admin.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName("lab-volume-" + i)
          .endMetadata().withNewSpec().withCapacity(Map.of("storage", new Quantity("100Gi")))
          .withAccessModes("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany").withStorageClassName("")
          .withPersistentVolumeReclaimPolicy("Retain").withNewHostPath().withPath("/lab/volume-" + i).endHostPath()
          .endSpec().build()).create();
    }
    await(nodes + " nodes Ready", kwok, () -> admin.nodes().withLabel(NODE_LABEL, NODE_LABEL_VALUE).list()
        .getItems().stream().filter(Lab::ready).count() == nodes);
  }

  /**
   * kwok's fast {@code pod-complete} stage (a Job's Running pod Succeeds at once) with the delay of its general
   * stage's annotation: a pod annotated {@value #COMPLETION_DELAY_ANNOTATION} (a duration, {@code "5s"}) stays
   * Running that long first, as a training would, so a client polling every second sees it Running; without it,
   * none.
   */
  static String withCompletionDelay(String stage) {
    String next = "\n  next:\n";
    if (!stage.contains(next)) {
      throw new IllegalStateException("kwok's pod-complete stage has no 'next:' to put a delay before:\n" + stage);
    }
    return stage.replace(next, "\n  delay:\n    durationMilliseconds: 0\n    durationFrom:\n      expressionFrom: "
        + "'.metadata.annotations[\"" + COMPLETION_DELAY_ANNOTATION + "\"]'" + next);
  }

  private static Node node(String name) {
    Map<String, Quantity> capacity = new java.util.TreeMap<>();
    NODE_CAPACITY.forEach((resource, amount) -> capacity.put(resource, new Quantity(amount)));
    return new NodeBuilder().withNewMetadata().withName(name)
        .withLabels(Map.of(NODE_LABEL, NODE_LABEL_VALUE, "kubernetes.io/hostname", name, "kubernetes.io/os", "linux",
            "kubernetes.io/arch", "amd64"))
        .withAnnotations(Map.of("node.alpha.kubernetes.io/ttl", "0", "kwok.x-k8s.io/node", "fake"))
        .endMetadata()
        .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus().build();
  }

  private static boolean ready(Node node) {
    return node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus().getConditions()
        .stream().anyMatch((NodeCondition c) -> c.getType().equals("Ready") && c.getStatus().equals("True"));
  }

  /**
   * JobSet v0.12 as its manifests install it, but reached at 127.0.0.1: its CRD; its webhook configurations with
   * {@code clientConfig.url} and the lab's CA instead of a Service and cert-manager (the pod webhooks with the
   * object selector of its kustomize patches); the controller with its internal certificate management off and a
   * certificate from the lab's CA.
   */
  private void startJobSet() throws Exception {
    applyFile(binaries.data().resolve("jobset/jobset.x-k8s.io_jobsets.yaml"));
    int webhookPort = LabPorts.free();
    int healthPort = LabPorts.free();
    Path dir = Files.createDirectories(work.resolve("jobset"));
    writeCertDir(issue(List.of("127.0.0.1")), dir.resolve("certs"));
    Files.writeString(dir.resolve("config.yaml"), """
        apiVersion: config.jobset.x-k8s.io/v1alpha1
        kind: Configuration
        leaderElection:
          leaderElect: false
        internalCertManagement:
          enable: false
        webhook:
          host: 127.0.0.1
          port: %d
          certDir: %s
        metrics:
          bindAddress: "0"
        health:
          healthProbeBindAddress: 127.0.0.1:%d
        """.formatted(webhookPort, dir.resolve("certs"), healthPort));
    LabProcess jobSet = launch("jobset", List.of(binaries.command("jobset").toString(),
        "--kubeconfig", adminKubeconfig().toString(), "--config", dir.resolve("config.yaml").toString(),
        "--zap-log-level", "info"));

    List<HasMetadata> webhooks;
    try (InputStream in = Files.newInputStream(binaries.data().resolve("jobset/webhooks.yaml"))) {
      webhooks = admin.load(in).items();
    }
    LabelSelector jobSetPods = new LabelSelectorBuilder().addNewMatchExpression()
        .withKey("jobset.sigs.k8s.io/jobset-name").withOperator("Exists").endMatchExpression().build();
    for (HasMetadata configuration : webhooks) {
      configuration.getMetadata().setName("jobset-" + configuration.getMetadata().getName());
      if (configuration instanceof MutatingWebhookConfiguration mutating) {
        mutating.getWebhooks().stream().filter(webhook -> podWebhook(webhook.getClientConfig()))
            .forEach(webhook -> webhook.setObjectSelector(jobSetPods));
      } else if (configuration instanceof ValidatingWebhookConfiguration validating) {
        validating.getWebhooks().stream().filter(webhook -> podWebhook(webhook.getClientConfig()))
            .forEach(webhook -> webhook.setObjectSelector(jobSetPods));
      }
    }
    registerWebhooks(webhooks, webhookPort);
    awaitReady("the JobSet controller", jobSet, healthPort);
    await("discovery serves jobset.x-k8s.io/v1alpha2 JobSet", jobSet, () -> served("jobset.x-k8s.io/v1alpha2",
        "JobSet"));
  }

  private static boolean podWebhook(WebhookClientConfig config) {
    return config.getService() != null && config.getService().getPath().endsWith("-v1-pod");
  }

  /** Server-side applies the objects of a manifest file as the admin. */
  public void applyFile(Path manifest) throws IOException {
    try (InputStream in = Files.newInputStream(manifest)) {
      admin.load(in).serverSideApply();
    }
  }

  /**
   * Applies admission webhook configurations with each webhook's Service path called at 127.0.0.1:{@code port},
   * trusted with the lab's CA: how a controller running as a process of this machine serves its webhooks.
   */
  public void registerWebhooks(List<HasMetadata> configurations, int port) {
    String caBundle = base64(caPem());
    for (HasMetadata configuration : configurations) {
      if (configuration instanceof MutatingWebhookConfiguration mutating) {
        mutating.getWebhooks().forEach(webhook -> webhook.setClientConfig(atLoopback(webhook.getClientConfig(), port,
            caBundle)));
      } else if (configuration instanceof ValidatingWebhookConfiguration validating) {
        validating.getWebhooks().forEach(webhook -> webhook.setClientConfig(atLoopback(webhook.getClientConfig(),
            port, caBundle)));
      }
      admin.resource(configuration).serverSideApply();
    }
  }

  /** Polls the process's {@code http://127.0.0.1:healthPort/readyz} until it answers 200. */
  public static void awaitReady(String what, LabProcess process, int healthPort) {
    HttpClient http = HttpClient.newHttpClient();
    await(what + " is ready", process, () -> http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + healthPort + "/readyz"))
            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
  }

  /** {@code service}'s path on 127.0.0.1:{@code port}, trusted with {@code caBundle} (base64 of a PEM). */
  private static WebhookClientConfig atLoopback(WebhookClientConfig service, int port, String caBundle) {
    return new WebhookClientConfigBuilder().withUrl("https://127.0.0.1:" + port + service.getService().getPath())
        .withCaBundle(caBundle).build();
  }

  private LabProcess launch(String name, List<String> command) throws IOException {
    LabProcess process = LabProcess.start(name, command, logs().resolve(name + ".log"));
    processes.add(process);
    return process;
  }

  /** Polls {@code condition} until true; fails with the component's log when it exits or the deadline passes. */
  public static void await(String what, LabProcess component, Callable<Boolean> condition) {
    try {
      Awaitility.await(what).atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
          .failFast(component.name() + " exited", () -> !component.isAlive()).until(condition);
    } catch (ConditionTimeoutException | TerminalFailureException e) {
      throw new IllegalStateException(what + ": " + e.getMessage() + "; " + component.name() + "'s log ("
          + component.log() + "):\n" + component.tail(40), e);
    }
  }

  private static SSLContext trusting(X509Certificate ca) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("lab-ca", ca);
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  private static String pem(PublicKey key) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(key);
    }
    return text.toString();
  }

  /** {@code text} in base64, as a kubeconfig or a webhook configuration holds a PEM. */
  public static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Stops every component, the last started first. */
  @Override
  public void close() throws InterruptedException {
    if (admin != null) {
      admin.close();
    }
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).close();
    }
    processes.clear();
  }
}
