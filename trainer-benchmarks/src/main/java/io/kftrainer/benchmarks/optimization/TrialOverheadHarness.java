package io.kftrainer.benchmarks.optimization;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The OptimizationJob controller's overhead per trial, not a test: how long after a trial ends the next trial's pod
 * runs, in {@code trainer.jar local} (operator, API server and executor in one process, as a user runs it). One
 * OptimizationJob of N trials, one at a time, each a TrainJob whose pod reports its objective and exits at once;
 * this process watches TrainJobs and pods and times, from trial i to trial i+1:
 *
 * <ul>
 *   <li>{@code pod ended -> trial Complete}: trial i's pod Succeeded to its TrainJob's {@code Complete} condition
 *       (executor: Job and JobSet status; the TrainJob controller);</li>
 *   <li>{@code Complete -> next trial created}: the OptimizationJob controller (reconcile, history written, TrainJob
 *       created);</li>
 *   <li>{@code created -> next pod Running}: the TrainJob controller (runtime, JobSet) and the executor (Job, pod,
 *       process started);</li>
 *   <li>{@code trial end -> next pod Running}: the sum, from the {@code Complete} condition: the overhead the issue
 *       asks for.</li>
 * </ul>
 *
 * Times are when this process's watches saw each change (all through the same loopback API server). Prints p50,
 * p90 and max of each over the N-1 transitions.
 *
 * <pre>java -cp trainer-benchmarks/target/benchmarks.jar io.kftrainer.benchmarks.optimization.TrialOverheadHarness \
 *     trainer-cli/target/trainer.jar [trials, default 20]</pre>
 */
public final class TrialOverheadHarness {

  private static final String NS = "overhead";
  private static final String NAME = "overhead";
  /** A trial: report the objective to the status server, by upstream's contract (mounted token and CA), exit. */
  private static final String TRIAL = String.join("\n",
      "import json, os, ssl, urllib.request",
      "from datetime import datetime, timezone",
      "status = {'progressPercentage': 100, 'lastUpdatedTime': datetime.now(timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),",
      "          'metrics': [{'name': 'loss', 'value': os.environ['KUBEFLOW_TRAINER_OPT_X']}]}",
      "token = open(os.environ['KUBEFLOW_TRAINER_SERVER_TOKEN']).read().strip()",
      "context = ssl.create_default_context(cafile=os.environ['KUBEFLOW_TRAINER_SERVER_CA_CERT'])",
      "urllib.request.urlopen(urllib.request.Request(os.environ['KUBEFLOW_TRAINER_SERVER_URL'],",
      "    json.dumps({'trainerStatus': status}).encode(), method='POST', headers={'Content-Type': 'application/json',",
      "    'Authorization': 'Bearer ' + token}), context=context, timeout=10).close()");

  private final Map<String, Long> created = new ConcurrentHashMap<>();
  private final Map<String, Long> complete = new ConcurrentHashMap<>();
  private final Map<String, Long> podRunning = new ConcurrentHashMap<>();
  private final Map<String, Long> podEnded = new ConcurrentHashMap<>();

  private TrialOverheadHarness() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: TrialOverheadHarness <trainer.jar> [trials]");
      System.exit(2);
    }
    int trials = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    Path workDir = Files.createTempDirectory("trial-overhead");
    Path kubeconfig = workDir.resolve("kubeconfig");
    Process local = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        Path.of(args[0]).toAbsolutePath().toString(), "local", "--port", "0", "--kubeconfig-out", kubeconfig.toString(),
        "--run-dir", workDir.resolve("run").toString())
        .redirectErrorStream(true).redirectOutput(workDir.resolve("local.log").toFile()).start();
    System.out.println("local: pid " + local.pid() + ", log " + workDir.resolve("local.log"));
    try (KubernetesClient client = connect(local, kubeconfig)) {
      new TrialOverheadHarness().run(client, trials);
    } finally {
      local.destroy();
      local.waitFor(20, TimeUnit.SECONDS);
    }
    System.exit(0);
  }

  private static KubernetesClient connect(Process local, Path kubeconfig) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (true) {
      if (!local.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("local mode did not start (see its log)");
      }
      if (Files.exists(kubeconfig)) {
        Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
        config.setHttp2Disable(true);
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        if (client.resources(ClusterTrainingRuntime.class).withName("torch-distributed").get() != null) {
          return client;
        }
        client.close();
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
  }

  private void run(KubernetesClient client, int trials) throws Exception {
    client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
        .withName(NS).endMetadata().build()).create();
    SharedIndexInformer<TrainJob> trainJobs = client.resources(TrainJob.class).inNamespace(NS).inform(
        handler(trainJob -> {
          String name = trainJob.getMetadata().getName();
          created.putIfAbsent(name, System.nanoTime());
          boolean done = trainJob.getStatus() != null && trainJob.getStatus().getConditions() != null
              && trainJob.getStatus().getConditions().stream()
                  .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()));
          if (done) {
            complete.putIfAbsent(name, System.nanoTime());
          }
        }));
    SharedIndexInformer<Pod> pods = client.pods().inNamespace(NS).inform(handler(pod -> {
      String trial = pod.getMetadata().getLabels() == null ? null
          : pod.getMetadata().getLabels().get("jobset.sigs.k8s.io/jobset-name");
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if (trial != null && "Running".equals(phase)) {
        podRunning.putIfAbsent(trial, System.nanoTime());
      }
      if (trial != null && ("Succeeded".equals(phase) || "Failed".equals(phase))) {
        podEnded.putIfAbsent(trial, System.nanoTime());
      }
    }));
    OptimizationJob job = client.getKubernetesSerialization().unmarshal(String.join("\n",
        "apiVersion: trainer.kubeflow.org/v1alpha1",
        "kind: OptimizationJob",
        "metadata: {name: " + NAME + ", namespace: " + NS + "}",
        "spec:",
        "  objectives: [{metric: loss}]",
        "  parameters: [{name: x, searchSpace: {uniform: {min: '0', max: '1'}}}]",
        "  numTrials: " + trials,
        "  parallelTrials: 1",
        "  trainJobTemplate:",
        "    spec:",
        "      runtimeRef: {name: torch-distributed}",
        "      trainer:",
        "        numNodes: 1",
        "        command: [python3, -c, " + client.getKubernetesSerialization().asJson(TRIAL) + "]"),
        OptimizationJob.class);
    long started = System.nanoTime();
    client.resource(job).create();
    long deadline = started + TimeUnit.SECONDS.toNanos(60L + 15L * trials);
    while (!ended(client)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the OptimizationJob did not end in time: " + client.resource(job).get()
            .getStatus());
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    long total = System.nanoTime() - started;
    trainJobs.close();
    pods.close();

    List<Long> toComplete = new ArrayList<>();
    List<Long> toCreated = new ArrayList<>();
    List<Long> toRunning = new ArrayList<>();
    List<Long> overhead = new ArrayList<>();
    for (int i = 0; i + 1 < trials; i++) {
      String trial = NAME + "-trial-" + i;
      String next = NAME + "-trial-" + (i + 1);
      toComplete.add(complete.get(trial) - podEnded.get(trial));
      toCreated.add(created.get(next) - complete.get(trial));
      toRunning.add(podRunning.get(next) - created.get(next));
      overhead.add(podRunning.get(next) - complete.get(trial));
    }
    System.out.printf(Locale.ROOT, "%d trials one at a time in %.1f s; per trial transition (ms):%n", trials,
        total / 1e9);
    print("pod ended -> trial Complete", toComplete);
    print("Complete -> next trial created", toCreated);
    print("created -> next pod Running", toRunning);
    print("trial end -> next pod Running", overhead);
    System.out.println("final status: " + client.resource(job).get().getStatus().getConditions().stream()
        .filter(c -> "True".equals(c.getStatus())).map(c -> c.getType() + "/" + c.getReason()).toList());
  }

  private static boolean ended(KubernetesClient client) {
    OptimizationJob job = client.resources(OptimizationJob.class).inNamespace(NS).withName(NAME).get();
    return job != null && job.getStatus() != null && job.getStatus().getConditions() != null
        && job.getStatus().getConditions().stream().anyMatch(c -> "True".equals(c.getStatus())
            && ("Complete".equals(c.getType()) || "Failed".equals(c.getType())));
  }

  private static void print(String what, List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    sorted.sort(Long::compare);
    System.out.printf(Locale.ROOT, "  %-32s p50 %6.0f  p90 %6.0f  max %6.0f%n", what, ms(percentile(sorted, 50)),
        ms(percentile(sorted, 90)), ms(sorted.get(sorted.size() - 1)));
  }

  private static long percentile(List<Long> sorted, int p) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  private static <T> ResourceEventHandler<T> handler(java.util.function.Consumer<T> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        seen.accept(object);
      }

      @Override
      public void onUpdate(T oldObject, T object) {
        seen.accept(object);
      }

      @Override
      public void onDelete(T object, boolean deletedFinalStateUnknown) {
      }
    };
  }
}
