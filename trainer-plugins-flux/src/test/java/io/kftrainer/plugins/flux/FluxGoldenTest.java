package io.kftrainer.plugins.flux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.plugins.plainml.PlainMLPlugin;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole build with the PlainML and JobSet plugins, as in the operator, on upstream's Flux examples: the
 * entrypoint ConfigMap (scripts and broker configuration as upstream renders them), the curve Secret (with
 * RFC 7748's keys instead of random ones) and the JobSet with the installer and the wrapped command.
 */
class FluxGoldenTest {

  private static final String RUNTIME = "scenarios/lammps/runtime.yaml";

  private final TestPipeline pipeline =
      TestPipeline.of(FluxFixtures.fixedKeyPlugin(), new PlainMLPlugin(), new JobSetPlugin());

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("LAMMPS on 2 nodes x 4 tasks (upstream's lammps-train-job.yaml)",
            "scenarios/lammps/trainjob.yaml", "golden/lammps.yaml"),
        Arguments.of("2 nodes with one GPU each, another network device and queue policy",
            "scenarios/gpus/trainjob.yaml", "golden/gpus.yaml"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void buildsConfigMapSecretAndJobSet(String name, String trainJobPath, String goldenPath) {
    TrainJob trainJob = FluxFixtures.trainJob(trainJobPath);
    String before = Yaml.dump(trainJob);

    List<HasMetadata> objects = pipeline.objects(FluxFixtures.runtime(RUNTIME), trainJob);

    assertThat(objects).extracting(HasMetadata::getKind).containsExactly("ConfigMap", "Secret", "JobSet");
    Golden.assertMatches(objects, goldenPath);
    assertThat(Yaml.dump(trainJob)).isEqualTo(before);
  }

  @Test
  void theLeadBrokerRunsTheCommandOnAllTasks() {
    var objects = pipeline.objects(FluxFixtures.runtime(RUNTIME),
        FluxFixtures.trainJob("scenarios/lammps/trainjob.yaml"));
    var data = FluxFixtures.configMap(objects).getData();

    assertThat(data.get("entrypoint.sh"))
        .contains("flux R encode --hosts=${hosts} --cores=0-3 > /tmp/R")
        .contains("mainHost=\"lammps-flux-node-0-0\"")
        .contains("flags=\"-N 2 -n 8  \"");
    assertThat(data.get("init.sh"))
        .contains("hosts=\"lammps-flux-node-0-[0-1]\"")
        .contains("default_bind = \"tcp://eth0:%p\"")
        .contains("default_connect = \"tcp://%h.lammps-flux.default.svc.cluster.local:%p\"")
        .contains("queue-policy = \"fcfs\"");
    PodSpec pod = FluxFixtures.jobSet(objects).getSpec().getReplicatedJobs().get(0).getTemplate().getSpec()
        .getTemplate().getSpec();
    Container node = pod.getContainers().get(0);
    assertThat(node.getCommand()).containsExactly("/bin/bash", "/etc/flux-config/entrypoint.sh",
        "lmp -v x 4 -v y 4 -v z 4 -in in.reaxc.hns -nocite");
    assertThat(node.getArgs()).isNullOrEmpty();
    assertThat(pod.getInitContainers()).extracting(Container::getName, Container::getImage)
        .containsExactly(tuple("flux-installer",
            "ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy"));
  }

  @Test
  void theTrainJobArgsAreInTheWrappedCommandNotRepeatedAfterIt() {
    TrainJob trainJob = FluxFixtures.trainJob("scenarios/lammps/trainjob.yaml",
        tj -> tj.getSpec().getTrainer().setArgs(List.of("-var", "steps", "10")));

    Container node = FluxFixtures.jobSet(pipeline.objects(FluxFixtures.runtime(RUNTIME), trainJob)).getSpec()
        .getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(node.getCommand()).last().asString().endsWith("-nocite -var steps 10");
    assertThat(node.getArgs()).isNullOrEmpty();
  }

  @Test
  void gpusGoIntoTheResourcesAndTheFlags() {
    var data = FluxFixtures.configMap(pipeline.objects(FluxFixtures.runtime(RUNTIME),
        FluxFixtures.trainJob("scenarios/gpus/trainjob.yaml"))).getData();

    assertThat(data.get("entrypoint.sh"))
        .contains("flux R encode --hosts=${hosts} --cores=0 --gpu=0 > /tmp/R")
        .contains("flags=\"-N 2 -n 2 -g 1  \"");
    assertThat(data.get("init.sh"))
        .contains("default_bind = \"tcp://eth1:%p\"")
        .contains("queue-policy = \"easy\"");
  }
}
