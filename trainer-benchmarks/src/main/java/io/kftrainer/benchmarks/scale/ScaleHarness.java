package io.kftrainer.benchmarks.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scale figures of the operator (issue 13.3), not a test: starts {@code trainer.jar apiserver} and
 * {@code trainer.jar run} as two processes, submits bursts of TrainJobs from this process (64 threads, client
 * {@value #AGENT}) and prints, per burst: throughput, p50/p99 of create to JobSet created (the JobSet's ADDED event
 * seen by this process's watch; {@code --created-condition} does not change it), the CPU of each process from
 * {@code /proc/<pid>/stat} (the operator's per reconcile, from its {@code operator_sdk_reconciliations_started_total}),
 * the operator's heap per cached TrainJob after a full GC ({@code jcmd GC.run}, {@code GC.heap_info}), and the
 * requests per TrainJob by client and verb from the server's {@code /debug/stats}. With
 * {@code -Dscale.histogram=N} it also prints the N classes whose live heap grew most during each burst
 * ({@code jcmd GC.class_histogram} before and after): what the heap per cached TrainJob is made of.
 *
 * <pre>java -cp trainer-benchmarks/target/benchmarks.jar io.kftrainer.benchmarks.scale.ScaleHarness \
 *     trainer-cli/target/trainer.jar 1000 10000 [-- operator options, default --kube-api-qps 0]</pre>
 */
public final class ScaleHarness {

  static final String AGENT = "scale-harness";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceDefinitionContext TRAINJOBS = new ResourceDefinitionContext.Builder()
      .withGroup("trainer.kubeflow.org").withVersion("v1alpha1").withPlural("trainjobs").withKind("TrainJob")
      .withNamespaced(true).build();
  private static final ResourceDefinitionContext JOBSETS = new ResourceDefinitionContext.Builder()
      .withGroup("jobset.x-k8s.io").withVersion("v1alpha2").withPlural("jobsets").withKind("JobSet")
      .withNamespaced(true).build();
  private static final String LABEL = "trainer.kubeflow.org/trainjob-name";
  private static final int HISTOGRAM_CLASSES = Integer.getInteger("scale.histogram", 0);
  /** A line of {@code GC.class_histogram}: {@code   num:  #instances  #bytes  class name (module)}. */
  private static final Pattern HISTOGRAM_LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

  private final Path jar;
  private final Path workDir;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final List<Process> processes = new ArrayList<>();
  private Process apiServer;
  private Process operator;
  private int metricsPort;
  private KubernetesClient client;

  private ScaleHarness(Path jar, Path workDir) {
    this.jar = jar;
    this.workDir = workDir;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ScaleHarness TRAINER_JAR N [N...] [-- operator options]");
      System.exit(2);
    }
    int dashes = Arrays.asList(args).indexOf("--");
    List<String> operatorArgs = dashes < 0 ? List.of("--kube-api-qps", "0")
        : List.of(args).subList(dashes + 1, args.length);
    List<Integer> bursts = List.of(args).subList(1, dashes < 0 ? args.length : dashes).stream()
        .map(Integer::valueOf).toList();
    ScaleHarness harness = new ScaleHarness(Path.of(args[0]), Files.createTempDirectory("scale-harness"));
    Runtime.getRuntime().addShutdownHook(new Thread(harness::stop));
    try {
      harness.start(operatorArgs);
      System.out.printf("machine: %d CPUs, %s; load average %s; operator options %s%n",
          Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
          Files.readString(Path.of("/proc/loadavg")).trim(), operatorArgs);
      for (int i = 0; i < bursts.size(); i++) {
        harness.burst("scale-" + i, bursts.get(i));
      }
    } finally {
      System.out.flush();
      harness.stop();
    }
    System.exit(0);
  }

  private void start(List<String> operatorArgs) throws Exception {
    int webhookPort = freePort();
    int healthPort = freePort();
    metricsPort = freePort();
    Path kubeconfig = workDir.resolve("kubeconfig");
    apiServer = launch("apiserver", List.of("-Xmx3g"), List.of("apiserver", "--port", "0", "--kubeconfig-out",
        kubeconfig.toString(), "--webhook-address", "127.0.0.1:" + webhookPort));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    Config config = null;
    while (config == null) {
      check(deadline, apiServer, "apiserver");
      try {
        config = Files.exists(kubeconfig) ? Config.fromKubeconfig(Files.readString(kubeconfig)) : null;
      } catch (RuntimeException e) {
        config = null;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    config.setHttp2Disable(true);
    config.setUserAgent(AGENT);
    config.setRequestTimeout(120_000);
    config.setMaxConcurrentRequests(128);
    config.setMaxConcurrentRequestsPerHost(128);
    client = new KubernetesClientBuilder().withConfig(config).build();
    // the harness scrapes its own operator on loopback: plain HTTP, as upstream's metrics.secureServing: false
    Path operatorConfig = Files.writeString(workDir.resolve("config.yaml"),
        "apiVersion: config.trainer.kubeflow.org/v1alpha1\nkind: Configuration\nmetrics: {secureServing: false}\n");
    List<String> args = new ArrayList<>(List.of("run", "--config", operatorConfig.toString(), "--kubeconfig",
        kubeconfig.toString(), "--webhook-port",
        Integer.toString(webhookPort), "--health-port", Integer.toString(healthPort), "--metrics-port",
        Integer.toString(metricsPort), "--bind-address", "127.0.0.1", "--leader-elect=false"));
    args.addAll(operatorArgs);
    operator = launch("operator", List.of("-Xmx2g"), args);
    while (!ok("http://127.0.0.1:" + healthPort + "/readyz")) {
      check(deadline, operator, "operator");
      TimeUnit.MILLISECONDS.sleep(100);
    }
  }

  private void burst(String namespace, int count) throws Exception {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .create();
    long heapBefore = heapAfterGc(operator);
    Map<String, long[]> histogramBefore = histogram(operator);
    debugStats(client.getHttpClient().newHttpRequestBuilder().method("DELETE", "application/json", ""));
    double reconcilesBefore = reconciles();
    long operatorCpu = cpuMillis(operator);
    long serverCpu = cpuMillis(apiServer);

    Map<String, Long> sent = new ConcurrentHashMap<>();
    Map<String, Long> jobSetSeen = new ConcurrentHashMap<>();
    CountDownLatch all = new CountDownLatch(count);
    var watch = client.genericKubernetesResources(JOBSETS).inNamespace(namespace).watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, GenericKubernetesResource jobSet) {
        String trainJob = jobSet.getMetadata().getLabels() == null ? null
            : jobSet.getMetadata().getLabels().get(LABEL);
        if (action == Action.ADDED && trainJob != null && jobSetSeen.putIfAbsent(trainJob, System.nanoTime()) == null) {
          all.countDown();
        }
      }

      @Override
      public void onClose(WatcherException cause) {
        System.err.println("JobSet watch closed: " + cause);
      }
    });
    ExecutorService threads = Executors.newFixedThreadPool(64);
    long started = System.nanoTime();
    List<Future<?>> creates = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = String.format("t-%05d", i);
      creates.add(threads.submit(() -> {
        sent.put(name, System.nanoTime());
        client.genericKubernetesResources(TRAINJOBS).inNamespace(namespace).resource(trainJob(name)).create();
        return null;
      }));
    }
    for (Future<?> create : creates) {
      create.get();
    }
    long submitted = System.nanoTime();
    if (!all.await(60, TimeUnit.MINUTES)) {
      throw new IllegalStateException("only " + jobSetSeen.size() + " of " + count + " JobSets after an hour");
    }
    long done = System.nanoTime();
    watch.close();
    threads.shutdown();
    // The last JobSets arrive while the operator still has the second reconcile of many TrainJobs (the one their
    // JobSet's event starts) queued: the costs and the heap are read once it has none left, in its steady state.
    double settledAfter = settle();
    long operatorCpuUsed = cpuMillis(operator) - operatorCpu;
    long serverCpuUsed = cpuMillis(apiServer) - serverCpu;
    double reconciled = reconciles() - reconcilesBefore;
    JsonNode stats = JSON.readTree(debugStats(client.getHttpClient().newHttpRequestBuilder()));
    long heapAfter = heapAfterGc(operator);
    Map<String, long[]> histogramAfter = histogram(operator);

    long[] latencies = sent.keySet().stream().mapToLong(n -> jobSetSeen.get(n) - sent.get(n)).sorted().toArray();
    double seconds = (done - started) / 1e9;
    System.out.printf("%n%,d TrainJobs: all created in %.1f s, all with a JobSet after %.1f s: %.1f TrainJobs/s%n",
        count, (submitted - started) / 1e9, seconds, count / seconds);
    System.out.printf("  create -> JobSet created: p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
        percentile(latencies, 50) / 1e6, percentile(latencies, 99) / 1e6, latencies[latencies.length - 1] / 1e6);
    System.out.printf("  the operator's last reconcile %.1f s after the last JobSet; the figures below from then%n",
        settledAfter);
    System.out.printf("  operator CPU %.1f s (%.2f ms per TrainJob, %.0f reconciles, %.2f ms per reconcile); "
            + "API server CPU %.1f s (%.2f ms per TrainJob, webhook calls included)%n",
        operatorCpuUsed / 1e3, (double) operatorCpuUsed / count, reconciled,
        reconciled > 0 ? operatorCpuUsed / reconciled : Double.NaN, serverCpuUsed / 1e3,
        (double) serverCpuUsed / count);
    System.out.printf("  operator heap after full GC: %,d KiB before, %,d KiB after: %.1f KiB per cached TrainJob "
        + "(with its JobSet and ConfigMap)%n", heapBefore, heapAfter, (double) (heapAfter - heapBefore) / count);
    Map<String, Long> byClient = new TreeMap<>();
    stats.path("requests").properties().forEach(e -> {
      // "<client> <verb> <resource>", the client possibly with spaces (kubectl's)
      String key = e.getKey();
      int resource = key.lastIndexOf(' ');
      int verb = key.lastIndexOf(' ', resource - 1);
      String who = key.substring(0, verb).equals(AGENT) ? "harness " : "operator ";
      byClient.merge(who + key.substring(verb + 1), e.getValue().asLong(), Long::sum);
    });
    System.out.println("  requests per TrainJob (the harness's own apart; the operator's include its Events):");
    byClient.forEach((key, n) -> System.out.printf("    %-60s %7.2f  (%,d)%n", key, (double) n / count, n));
    printGrowth(histogramBefore, histogramAfter, count);
    System.out.flush();
  }

  /** Live instances and bytes by class after a full GC ({@code GC.class_histogram} runs one); empty if not asked. */
  private static Map<String, long[]> histogram(Process process) throws Exception {
    Map<String, long[]> classes = new TreeMap<>();
    if (HISTOGRAM_CLASSES > 0) {
      for (String line : jcmd(process, "GC.class_histogram").split("\n")) {
        Matcher m = HISTOGRAM_LINE.matcher(line);
        if (m.find()) {
          classes.put(m.group(3), new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))});
        }
      }
    }
    return classes;
  }

  private static void printGrowth(Map<String, long[]> before, Map<String, long[]> after, int count) {
    if (after.isEmpty()) {
      return;
    }
    long total = 0;
    List<Map.Entry<String, long[]>> growth = new ArrayList<>();
    for (Map.Entry<String, long[]> e : after.entrySet()) {
      long[] was = before.getOrDefault(e.getKey(), new long[2]);
      long[] delta = {e.getValue()[0] - was[0], e.getValue()[1] - was[1]};
      total += delta[1];
      growth.add(Map.entry(e.getKey(), delta));
    }
    growth.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    System.out.printf("  live heap growth by class (GC.class_histogram): %,.1f KiB per TrainJob in all%n",
        total / 1024.0 / count);
    for (Map.Entry<String, long[]> e : growth.subList(0, Math.min(HISTOGRAM_CLASSES, growth.size()))) {
      System.out.printf("    %-90s %8.1f instances %8.0f B per TrainJob%n", e.getKey(),
          (double) e.getValue()[0] / count, (double) e.getValue()[1] / count);
    }
  }

  private static GenericKubernetesResource trainJob(String name) {
    GenericKubernetesResource trainJob = new GenericKubernetesResource();
    trainJob.setApiVersion("trainer.kubeflow.org/v1alpha1");
    trainJob.setKind("TrainJob");
    trainJob.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
    trainJob.setAdditionalProperty("spec", Map.of("runtimeRef", Map.of("name", "torch-distributed"),
        "trainer", Map.of("numNodes", 2, "command", List.of("torchrun", "train.py"))));
    return trainJob;
  }

  private static double percentile(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

  /** utime + stime of a process, in milliseconds (clock ticks of 10 ms on Linux). */
  private static long cpuMillis(Process process) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
  }

  /** Used heap in KiB after a full GC, from {@code jcmd}. */
  private static long heapAfterGc(Process process) throws Exception {
    jcmd(process, "GC.run");
    String info = jcmd(process, "GC.heap_info");
    Matcher used = Pattern.compile("total \\d+K, used (\\d+)K").matcher(info);
    return used.find() ? Long.parseLong(used.group(1)) : -1;
  }

  private static String jcmd(Process process, String command) throws Exception {
    Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(process.pid()), command).redirectErrorStream(true).start();
    String out = new String(jcmd.getInputStream().readAllBytes());
    jcmd.waitFor();
    return out;
  }

  /** Waits until the operator has started no reconcile for 2 s (at most 10 minutes); returns the seconds waited. */
  private double settle() throws Exception {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MINUTES.toNanos(10);
    double last = reconciles();
    long quietSince = System.nanoTime();
    while (System.nanoTime() - quietSince < TimeUnit.SECONDS.toNanos(2) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(200);
      double now = reconciles();
      if (now != last) {
        last = now;
        quietSince = System.nanoTime();
      }
    }
    return (quietSince - start) / 1e9;
  }

  private double reconciles() throws Exception {
    String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
        .build(), HttpResponse.BodyHandlers.ofString()).body();
    double total = 0;
    for (String line : metrics.split("\n")) {
      if (line.startsWith("operator_sdk_reconciliations_started_total")) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return total;
  }

  private boolean ok(String url) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
          .statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Process launch(String name, List<String> jvmOptions, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toString()));
    command.addAll(args);
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(workDir.resolve(name + ".log").toFile()).start();
    processes.add(process);
    System.out.println(name + ": pid " + process.pid() + ", log " + workDir.resolve(name + ".log"));
    return process;
  }

  private static void check(long deadline, Process process, String name) {
    if (!process.isAlive() || System.nanoTime() > deadline) {
      throw new IllegalStateException(name + " did not start (see its log)");
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void stop() {
    if (client != null) {
      client.close();
    }
    processes.forEach(Process::destroy);
  }

  /** The API server's {@code /debug/stats} through the client's HTTP client: its CA and the admin token. */
  private String debugStats(io.fabric8.kubernetes.client.http.HttpRequest.Builder request) throws Exception {
    io.fabric8.kubernetes.client.http.HttpResponse<String> response = client.getHttpClient()
        .sendAsync(request.uri(client.getMasterUrl() + "debug/stats").build(), String.class).get(30, TimeUnit.SECONDS);
    if (response.code() != 200) {
      throw new IllegalStateException("/debug/stats: " + response.code() + " " + response.body());
    }
    return response.body();
  }
}
