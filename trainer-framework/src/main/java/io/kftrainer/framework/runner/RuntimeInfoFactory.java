package io.kftrainer.framework.runner;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.Copies;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.JobSetSpecPatch;
import io.kftrainer.api.v1alpha1.JobSetTemplatePatch;
import io.kftrainer.api.v1alpha1.JobSetTemplateSpec;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.RuntimePatch;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpecPatch;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.RuntimeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the runtime info a build starts from (upstream's {@code newRuntimeInfo}):
 *
 * <ol>
 *   <li>JobSet labels and annotations: the runtime template's, then each runtime patch's;</li>
 *   <li>the JobSet spec: a copy of the runtime template with each runtime patch strategically merged in
 *       ({@link RuntimePatchMerge}: replicated jobs by name, containers by name, env by name...);</li>
 *   <li>{@code trainer.resourcesPerNode} merged per resource into container {@code node} of the trainer job
 *       (and of job {@code node} when MPI runs the launcher as a node);</li>
 *   <li>one pod set per replicated job: its ancestor label, its count ({@code mlPolicy.numNodes} for the trainer,
 *       else the job's parallelism), its containers, volumes and the requests of one pod.</li>
 * </ol>
 */
final class RuntimeInfoFactory {

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

  RuntimeInfo newRuntimeInfo(RuntimeSource runtime, TrainJob trainJob) {
    TrainingRuntimeSpec spec = runtime.spec();
    JobSetTemplateSpec template = spec.getTemplate();
    Map<String, String> labels = new LinkedHashMap<>();
    Map<String, String> annotations = new LinkedHashMap<>();
    addMetadata(template == null ? null : template.getMetadata(), labels, annotations);

    List<RuntimePatch> patches = nullToEmpty(trainJob.getSpec().getRuntimePatches());
    patches.forEach(patch -> patchTemplate(patch).ifPresent(t -> addMetadata(t.getMetadata(), labels, annotations)));
    JobSetSpec merged = mergePatches(template == null ? null : template.getSpec(), patches);
    mergeResourcesPerNode(merged, spec.getMlPolicy(), trainJob);
    return new RuntimeInfo(runtime, labels, annotations, spec.getMlPolicy(), spec.getPodGroupPolicy(), merged,
        podSets(merged, spec.getMlPolicy()));
  }

  private static void addMetadata(ObjectMeta metadata, Map<String, String> labels,
      Map<String, String> annotations) {
    if (metadata == null) {
      return;
    }
    if (metadata.getLabels() != null) {
      labels.putAll(metadata.getLabels());
    }
    if (metadata.getAnnotations() != null) {
      annotations.putAll(metadata.getAnnotations());
    }
  }

  /**
   * A private copy of the runtime's JobSet spec with the patches' specs merged in. Without patches (the common
   * case) a plain copy, which is much cheaper than the JSON-tree merge.
   */
  private static JobSetSpec mergePatches(JobSetSpec runtimeSpec, List<RuntimePatch> patches) {
    List<JobSetSpecPatch> specPatches = patches.stream()
        .flatMap(patch -> patchTemplate(patch).map(JobSetTemplatePatch::getSpec).stream())
        .toList();
    if (specPatches.isEmpty()) {
      return runtimeSpec == null ? new JobSetSpec() : Copies.jobSetSpec(runtimeSpec);
    }
    ObjectNode tree = runtimeSpec == null ? MAPPER.createObjectNode() : MAPPER.valueToTree(runtimeSpec);
    try {
      for (JobSetSpecPatch patch : specPatches) {
        tree = RuntimePatchMerge.merge(tree, MAPPER.valueToTree(patch));
      }
    } catch (IllegalArgumentException e) { // an item of a merged list without its merge key, as upstream's error
      throw new IllegalArgumentException("runtime patches do not fit the JobSet spec: " + e.getMessage(), e);
    }
    return toJobSetSpec(tree);
  }

  private static Optional<JobSetTemplatePatch> patchTemplate(RuntimePatch patch) {
    return Optional.ofNullable(patch.getTrainingRuntimeSpec()).map(TrainingRuntimeSpecPatch::getTemplate);
  }

  private static JobSetSpec toJobSetSpec(ObjectNode tree) {
    try {
      return MAPPER.treeToValue(tree, JobSetSpec.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("runtime patches do not fit the JobSet spec: " + e.getOriginalMessage(),
          e);
    }
  }

  private static void mergeResourcesPerNode(JobSetSpec spec, MLPolicy mlPolicy, TrainJob trainJob) {
    var trainer = trainJob.getSpec().getTrainer();
    if (trainer == null || trainer.getResourcesPerNode() == null) {
      return;
    }
    boolean launcherAsNode = mlPolicy != null && mlPolicy.getMpi() != null
        && Boolean.TRUE.equals(mlPolicy.getMpi().getRunLauncherAsNode());
    for (ReplicatedJob job : nullToEmpty(spec.getReplicatedJobs())) {
      boolean target = TrainerConstants.ANCESTOR_TRAINER.equals(ancestor(job).orElse(null))
          || (launcherAsNode && TrainerConstants.CONTAINER_NODE.equals(job.getName()));
      if (!target) {
        continue;
      }
      for (Container container : nullToEmpty(podSpec(job).map(PodSpec::getContainers).orElse(null))) {
        if (TrainerConstants.CONTAINER_NODE.equals(container.getName())) {
          container.setResources(merge(container.getResources(), trainer.getResourcesPerNode()));
        }
      }
    }
  }

  private static ResourceRequirements merge(ResourceRequirements base, ResourceRequirements overlay) {
    ResourceRequirements merged = new ResourceRequirements();
    merged.setRequests(new LinkedHashMap<>());
    merged.setLimits(new LinkedHashMap<>());
    if (base != null) {
      putAll(merged.getRequests(), base.getRequests());
      putAll(merged.getLimits(), base.getLimits());
      merged.setClaims(base.getClaims());
    }
    putAll(merged.getRequests(), overlay.getRequests());
    putAll(merged.getLimits(), overlay.getLimits());
    return merged;
  }

  private static <V> void putAll(Map<String, V> target, Map<String, V> source) {
    if (source != null) {
      target.putAll(source);
    }
  }

  private static List<PodSet> podSets(JobSetSpec spec, MLPolicy mlPolicy) {
    List<PodSet> podSets = new ArrayList<>();
    for (ReplicatedJob job : nullToEmpty(spec.getReplicatedJobs())) {
      Optional<String> ancestor = ancestor(job);
      PodSpec pod = podSpec(job).orElseGet(PodSpec::new);
      podSets.add(PodSet.builder()
          .name(job.getName())
          .ancestor(ancestor)
          .count(count(job, ancestor, mlPolicy))
          .initContainers(containers(pod.getInitContainers()))
          .containers(containers(pod.getContainers()))
          .volumes(nullToEmpty(pod.getVolumes()))
          .singlePodRequests(PodRequests.of(pod))
          .build());
    }
    return podSets;
  }

  private static int count(ReplicatedJob job, Optional<String> ancestor, MLPolicy mlPolicy) {
    if (ancestor.filter(TrainerConstants.ANCESTOR_TRAINER::equals).isPresent() && mlPolicy != null
        && mlPolicy.getNumNodes() != null) {
      return mlPolicy.getNumNodes();
    }
    Integer parallelism = job.getTemplate() == null || job.getTemplate().getSpec() == null ? null
        : job.getTemplate().getSpec().getParallelism();
    return parallelism == null ? 1 : parallelism;
  }

  private static List<ContainerInfo> containers(List<Container> containers) {
    return nullToEmpty(containers).stream()
        .map(c -> ContainerInfo.builder()
            .name(c.getName())
            .image(Optional.ofNullable(c.getImage()))
            .command(nullToEmpty(c.getCommand()))
            .env(nullToEmpty(c.getEnv()))
            .ports(nullToEmpty(c.getPorts()))
            .volumeMounts(nullToEmpty(c.getVolumeMounts()))
            .build())
        .toList();
  }

  static Optional<String> ancestor(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(t -> t.getMetadata())
        .map(m -> m.getLabels())
        .map(l -> l.get(TrainerConstants.LABEL_TRAINJOB_ANCESTOR));
  }

  private static Optional<PodSpec> podSpec(ReplicatedJob job) {
    return Optional.ofNullable(job.getTemplate())
        .map(t -> t.getSpec())
        .map(s -> s.getTemplate())
        .map(t -> t.getSpec());
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
