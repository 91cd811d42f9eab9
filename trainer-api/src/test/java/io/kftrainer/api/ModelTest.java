package io.kftrainer.api;

import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.JAXMLPolicySource;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.PodSpecPatch;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TorchMLPolicySource;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Typed access to the parsed test documents: fields land where the operator will read them.
 */
class ModelTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private static <T> T parse(String document, int item, Class<T> type) {
    return SERIALIZATION.unmarshal(Documents.yaml(Documents.read(document).get(item)), type);
  }

  @Test
  void numProcPerNodeAutoParsesAsAString() {
    TrainJob job = parse("trainjob-numprocpernode-auto.yaml", 0, TrainJob.class);

    IntOrString numProc = job.getSpec().getTrainer().getNumProcPerNode();
    assertThat(numProc.getStrVal()).isEqualTo("auto");
    assertThat(numProc.getIntVal()).isNull();
  }

  @Test
  void numProcPerNodeFourParsesAsAnInt() {
    TrainJob job = parse("trainjob-initializers-runtimepatches.yaml", 0, TrainJob.class);

    IntOrString numProc = job.getSpec().getTrainer().getNumProcPerNode();
    assertThat(numProc.getIntVal()).isEqualTo(4);
    assertThat(numProc.getStrVal()).isNull();
  }

  @Test
  void numProcPerNodeIsWrittenBackAsIntOrString() {
    Trainer trainer = new Trainer().withNumProcPerNode(new IntOrString(4));
    assertThat(SERIALIZATION.asJson(trainer)).isEqualTo("{\"numProcPerNode\":4}");

    trainer.setNumProcPerNode(new IntOrString("gpu"));
    assertThat(SERIALIZATION.asJson(trainer)).isEqualTo("{\"numProcPerNode\":\"gpu\"}");
  }

  @Test
  void torchPolicyKeepsTheV21NumProcPerNodeStrings() {
    ClusterTrainingRuntime torch = parse("torch-distributed-clustertrainingruntime.yaml", 0,
        ClusterTrainingRuntime.class);
    ClusterTrainingRuntime elastic = parse("policies-clustertrainingruntime.yaml", 4, ClusterTrainingRuntime.class);

    assertThat(torch.getSpec().getMlPolicy().getTorch().getNumProcPerNode()).isEqualTo(new IntOrString("auto"));
    TorchMLPolicySource elasticTorch = elastic.getSpec().getMlPolicy().getTorch();
    assertThat(elasticTorch.getNumProcPerNode()).isEqualTo(new IntOrString("gpu"));
    assertThat(elasticTorch.getElasticPolicy().getMaxNodes()).isEqualTo(8);
    assertThat(elasticTorch.getElasticPolicy().getMetrics().get(0).getResource().getTarget().getAverageUtilization())
        .isEqualTo(80);
    assertThat(torch.getSpec().getMlPolicy().getTorch().getEnvInjection().getTargets().get(0).getContainerNames())
        .containsExactly("preflight-check", "metrics-sidecar");
  }

  @Test
  void trainJobFieldsLandInTheTypedModel() {
    TrainJob job = parse("trainjob-initializers-runtimepatches.yaml", 0, TrainJob.class);
    TrainJobSpec spec = job.getSpec();

    assertThat(job.getApiVersion()).isEqualTo(TrainerConstants.API_VERSION);
    assertThat(spec.getRuntimeRef()).isEqualTo(new RuntimeRef().withName("torch-distributed-with-initializers")
        .withApiGroup(TrainerConstants.GROUP).withKind(TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND));
    assertThat(spec.getInitializer().getDataset().getSecretRef().getName()).isEqualTo("hf-token");
    assertThat(spec.getInitializer().getModel().getEnv()).extracting("name")
        .containsExactly("AWS_REGION", "AWS_ACCESS_KEY_ID");
    assertThat(spec.getTrainer().getResourcesPerNode().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("8"));
    assertThat(spec.getActiveDeadlineSeconds()).isEqualTo(86_400L);
    assertThat(spec.getSuspend()).isFalse();
    assertThat(spec.getManagedBy()).isEqualTo(TrainerConstants.DEFAULT_MANAGED_BY);

    List<RuntimePatch> patches = spec.getRuntimePatches();
    assertThat(patches).extracting(RuntimePatch::getManager)
        .containsExactly("kueue.x-k8s.io/manager", "user.example.com/alice");
    assertThat(patches.get(0).getTime()).isEqualTo("2026-03-01T10:15:30Z");
    PodSpecPatch kueue = patches.get(0).getTrainingRuntimeSpec().getTemplate().getSpec().getReplicatedJobs().get(0)
        .getTemplate().getSpec().getTemplate().getSpec();
    assertThat(kueue.getNodeSelector()).containsEntry("cloud.google.com/gke-accelerator", "nvidia-h100-80gb");
    assertThat(kueue.getTolerations()).hasSize(2);
    assertThat(kueue.getTolerations().get(1).getTolerationSeconds()).isEqualTo(300L);
    assertThat(kueue.getSchedulingGates()).extracting("name").containsExactly("kueue.x-k8s.io/topology");
    PodSpecPatch user = patches.get(1).getTrainingRuntimeSpec().getTemplate().getSpec().getReplicatedJobs().get(0)
        .getTemplate().getSpec().getTemplate().getSpec();
    assertThat(user.getContainers().get(0).getEnv()).extracting("name").containsExactly("PUSHGATEWAY_URL");
    assertThat(user.getContainers().get(0).getVolumeMounts().get(0).getMountPath()).isEqualTo("/checkpoints");
    assertThat(user.getTerminationGracePeriodSeconds()).isEqualTo(60L);

    assertThat(job.getStatus().getConditions()).extracting("type").containsExactly("Suspended", "Complete");
    assertThat(job.getStatus().getJobsStatus().get(1).getSucceeded()).isEqualTo(1);
    assertThat(job.getStatus().getTrainerStatus().getMetrics().get(0).getValue()).isEqualTo("0.4213");
  }

  @Test
  void mpiRuntimeFieldsLandInTheTypedModel() {
    TrainingRuntime runtime = parse("mpi-deepspeed-trainingruntime.yaml", 0, TrainingRuntime.class);
    TrainingRuntimeSpec spec = runtime.getSpec();

    assertThat(runtime.getMetadata().getNamespace()).isEqualTo("team-a");
    assertThat(spec.getMlPolicy().getMpi().getMpiImplementation())
        .isEqualTo(TrainerConstants.MPI_IMPLEMENTATION_OPENMPI);
    assertThat(spec.getMlPolicy().getMpi().getRunLauncherAsNode()).isTrue();
    assertThat(spec.getTemplate().getSpec().getNetwork().getEnableDNSHostnames()).isTrue();
    assertThat(spec.getTemplate().getSpec().getSuccessPolicy().getTargetReplicatedJobs()).containsExactly("launcher");
    assertThat(spec.getTemplate().getSpec().getFailurePolicy().getRules().get(0).getAction()).isEqualTo("FailJobSet");
    ReplicatedJob launcher = spec.getTemplate().getSpec().getReplicatedJobs().get(1);
    assertThat(launcher.getDependsOn().get(0).getName()).isEqualTo("node");
    assertThat(launcher.getDependsOn().get(0).getStatus()).isEqualTo("Ready");
    assertThat(launcher.getTemplate().getMetadata().getLabels())
        .containsEntry(TrainerConstants.LABEL_TRAINJOB_ANCESTOR, TrainerConstants.ANCESTOR_TRAINER);
  }

  @Test
  void jobSetStatusLandsInTheTypedModel() {
    JobSet jobSet = parse("jobset-with-status.yaml", 0, JobSet.class);

    assertThat(jobSet.getSpec().getCoordinator().getReplicatedJob()).isEqualTo("node");
    assertThat(jobSet.getSpec().getVolumeClaimPolicies().get(0).getRetentionPolicy().getWhenDeleted())
        .isEqualTo("Retain");
    assertThat(jobSet.getStatus().getTerminalState()).isEqualTo("Completed");
    assertThat(jobSet.getStatus().getRestarts()).isEqualTo(1);
    assertThat(jobSet.getStatus().getReplicatedJobsStatus().get(0).getSucceeded()).isEqualTo(1);
  }

  @Test
  void plainMlMeansNoFrameworkPolicy() {
    MLPolicy plain = parse("policies-clustertrainingruntime.yaml", 3, ClusterTrainingRuntime.class)
        .getSpec().getMlPolicy();
    MLPolicy jax = parse("policies-clustertrainingruntime.yaml", 0, ClusterTrainingRuntime.class)
        .getSpec().getMlPolicy();

    assertThat(plain.isPlainML()).isTrue();
    assertThat(jax.isPlainML()).isFalse();
    assertThat(jax.getJax()).isEqualTo(new JAXMLPolicySource());
    assertThat(SERIALIZATION.asJson(jax)).isEqualTo("{\"numNodes\":1,\"jax\":{}}");
  }

  @Test
  void unsetFieldsStayAbsent() {
    TrainJob job = new TrainJob();
    job.getMetadata().setName("minimal");
    job.setSpec(new TrainJobSpec().withRuntimeRef(new RuntimeRef().withName("torch-distributed")));

    JsonNode json = Documents.parseJson(SERIALIZATION.asJson(job));

    assertThat(json.get("spec").toString()).isEqualTo("{\"runtimeRef\":{\"name\":\"torch-distributed\"}}");
    assertThat(json.has("status")).isFalse();
    assertThat(json.get("apiVersion").asText()).isEqualTo("trainer.kubeflow.org/v1alpha1");
    assertThat(json.get("kind").asText()).isEqualTo("TrainJob");
  }

  @Test
  void unknownFieldsAreIgnoredLikeGoClientsDo() {
    TrainJob job = SERIALIZATION.unmarshal("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: from-a-newer-upstream
        spec:
          runtimeRef:
            name: torch-distributed
            fieldFromTheFuture: 1
          anotherNewField: {}
        """, TrainJob.class);

    assertThat(job.getSpec())
        .isEqualTo(new TrainJobSpec().withRuntimeRef(new RuntimeRef().withName("torch-distributed")));
  }

  @Test
  void theJobSetSpecCopyEqualsTheJsonCopyAndIsIndependentOfTheOriginal() {
    TrainingRuntime runtime = parse("mpi-deepspeed-trainingruntime.yaml", 0, TrainingRuntime.class);
    JobSetSpec original = runtime.getSpec().getTemplate().getSpec();

    JobSetSpec copy = Copies.jobSetSpec(original);

    assertThat(copy).isNotSameAs(original).isEqualTo(original).isEqualTo(Copies.deepCopy(original));
    copy.getReplicatedJobs().get(0).getTemplate().getSpec().getTemplate().getSpec().getContainers().get(0)
        .setImage("changed");
    copy.getReplicatedJobs().get(1).getTemplate().getMetadata().getLabels().put("changed", "yes");
    copy.getReplicatedJobs().get(1).getDependsOn().get(0).setStatus("Complete");
    assertThat(original).isEqualTo(runtime.getSpec().getTemplate().getSpec())
        .isEqualTo(parse("mpi-deepspeed-trainingruntime.yaml", 0, TrainingRuntime.class)
            .getSpec().getTemplate().getSpec());
    assertThat(Copies.jobSetSpec(null)).isNull();
  }

  @Test
  void deepCopyIsIndependentOfTheOriginal() {
    TrainJob original = parse("trainjob-initializers-runtimepatches.yaml", 0, TrainJob.class);
    TrainJob copy = Copies.deepCopy(original);

    copy.getSpec().getTrainer().getArgs().set(0, "--epochs=1");
    copy.getMetadata().getLabels().put("changed", "yes");

    assertThat(original.getSpec().getTrainer().getArgs().get(0)).isEqualTo("--epochs=3");
    assertThat(original.getMetadata().getLabels()).doesNotContainKey("changed");
    assertThat(copy).isNotEqualTo(original);
    assertThat(Copies.deepCopy((Object) null)).isNull();
  }

  @Test
  void equalsAndToStringCoverEveryField() {
    RuntimeRef a = new RuntimeRef().withName("x").withKind("TrainingRuntime");
    RuntimeRef b = new RuntimeRef().withName("x").withKind("TrainingRuntime");

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(new RuntimeRef().withName("x").withKind("ClusterTrainingRuntime"));
    assertThat(a.toString()).isEqualTo("RuntimeRef{name=x, apiGroup=null, kind=TrainingRuntime}");
    assertThat(Map.of("k", a)).containsValue(b);
  }
}
