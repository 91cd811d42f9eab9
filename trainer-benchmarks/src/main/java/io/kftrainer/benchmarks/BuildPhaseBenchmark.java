package io.kftrainer.benchmarks;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.loader.PluginLoader;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.BuildResult;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.InMemoryObjectLookup;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The build phase of one TrainJob with the built-in plugins (what every reconcile of a running TrainJob pays),
 * against a floor: one JSON serialize + parse of the JobSet that build produces.
 *
 * <p>The MPI scenario sees its SSH Secret as existing, as every reconcile after the first does: generating a
 * P-521 key pair is a one-off cost that would otherwise swamp the figure.
 *
 * <p>Settings for stable figures on a small, shared machine: 20 s of warm-up per fork (the MPI scenario's ratio
 * swung from 0.92 to 1.59 with 3 s: C2 had not finished compiling the build path, and the default heap was still
 * resizing), two forks (one fork's JIT decisions can differ from another's), and a fixed 1 GiB heap with the
 * parallel collector so that heap sizing and concurrent GC threads do not compete with the measured thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"})
public class BuildPhaseBenchmark {

  @Param({"torch-4-nodes", "mpi-2-nodes"})
  public String scenario;

  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private PhaseRunner runner;
  private RuntimeSource runtime;
  private TrainJob trainJob;
  private ObjectLookup cluster;
  private JobSet jobSet;

  @Setup
  public void setUp() {
    runner = new PhaseRunner(PluginLoader.load(getClass().getClassLoader()).instances());
    runtime = Fixtures.runtime(Fixtures.resource("benchmarks/" + scenario + "/runtime.yaml"));
    trainJob = Fixtures.trainJob(Fixtures.resource("benchmarks/" + scenario + "/trainjob.yaml"));
    Secret sshSecret = new Secret();
    sshSecret.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
    sshSecret.getMetadata().setNamespace(trainJob.getMetadata().getNamespace());
    sshSecret.getMetadata().setName(trainJob.getMetadata().getName() + "-mpi-ssh-auth");
    cluster = InMemoryObjectLookup.of(sshSecret);
    BuildResult result = runner.runBuild(runtime, trainJob, cluster);
    jobSet = result.objects().stream().filter(JobSet.class::isInstance).map(JobSet.class::cast)
        .findFirst().orElseThrow(() -> new IllegalStateException("no JobSet built for " + scenario));
  }

  @Benchmark
  public java.util.List<HasMetadata> build() {
    return runner.runBuild(runtime, trainJob, cluster).objects();
  }

  @Benchmark
  public JobSet jsonRoundTripOfTheJobSet() {
    return serialization.unmarshal(serialization.asJson(jobSet), JobSet.class);
  }
}
