package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.kftrainer.api.jobset.v1alpha2.JobSetSpec;
import io.kftrainer.api.jobset.v1alpha2.ReplicatedJob;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.PodGroupPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The runtime information that build-phase plugins share (upstream's {@code runtime.Info}), built by the runner
 * from the runtime and the TrainJob, then changed by each build step in phase order:
 *
 * <ol>
 *   <li>the runner builds it from the runtime template, the TrainJob's {@code runtimePatches} and
 *       {@code trainer.resourcesPerNode};</li>
 *   <li>{@code EnforceMLPolicy} and {@code EnforcePodGroupPolicy} plugins change pod sets and scheduler labels;</li>
 *   <li>{@code EnforcePodSpec} and {@code PreBuildSync} plugins finish the pod sets (endpoints, parallelism);</li>
 *   <li>{@code ComponentBuilder} plugins read it to build objects.</li>
 * </ol>
 *
 * <p>Not thread-safe: one instance belongs to one build.
 */
public final class RuntimeInfo {

  private final RuntimeSource runtime;
  private final Map<String, String> labels;
  private final Map<String, String> annotations;
  private final MLPolicy mlPolicy;
  private final PodGroupPolicy podGroupPolicy;
  private final Map<String, String> schedulerPodLabels = new LinkedHashMap<>();
  private final Map<String, String> schedulerPodAnnotations = new LinkedHashMap<>();
  private final JobSetSpec template;
  private final List<PodSet> podSets;

  public RuntimeInfo(RuntimeSource runtime, Map<String, String> labels, Map<String, String> annotations,
      MLPolicy mlPolicy, PodGroupPolicy podGroupPolicy, JobSetSpec template, List<PodSet> podSets) {
    this.runtime = runtime;
    this.labels = new LinkedHashMap<>(labels);
    this.annotations = new LinkedHashMap<>(annotations);
    this.mlPolicy = mlPolicy;
    this.podGroupPolicy = podGroupPolicy;
    this.template = template;
    this.podSets = new ArrayList<>(podSets);
  }

  /** Which runtime this info was built from. */
  public RuntimeSource runtime() {
    return runtime;
  }

  /** Labels of the JobSet (the runtime template's, then the runtime patches'); mutable. */
  public Map<String, String> labels() {
    return labels;
  }

  /** Annotations of the JobSet; mutable. */
  public Map<String, String> annotations() {
    return annotations;
  }

  /** The runtime's ML policy; empty when none is set (plain ML). Read-only. */
  public Optional<MLPolicy> mlPolicy() {
    return Optional.ofNullable(mlPolicy);
  }

  /** The runtime's pod group (gang scheduling) policy, if any. Read-only. */
  public Optional<PodGroupPolicy> podGroupPolicy() {
    return Optional.ofNullable(podGroupPolicy);
  }

  /** Labels the scheduler needs on every pod template; mutable. */
  public Map<String, String> schedulerPodLabels() {
    return schedulerPodLabels;
  }

  /** Annotations the scheduler needs on every pod template; mutable. */
  public Map<String, String> schedulerPodAnnotations() {
    return schedulerPodAnnotations;
  }

  /**
   * The JobSet spec of the runtime template, with the TrainJob's runtime patches and resources per node merged.
   * A private copy: builders start from it.
   */
  public JobSetSpec template() {
    return template;
  }

  /** The pod sets, in the order of the template's replicated jobs. */
  public List<PodSet> podSets() {
    return Collections.unmodifiableList(podSets);
  }

  public Optional<PodSet> podSet(String name) {
    return find(ps -> ps.name().equals(name));
  }

  /** The first pod set whose ancestor label has this value. */
  public Optional<PodSet> podSetByAncestor(String ancestor) {
    return find(ps -> ps.hasAncestor(ancestor));
  }

  /**
   * The pod sets that run the training: the one with ancestor {@code trainer}, and for an MPI runtime also those
   * without an ancestor label (upstream's MPI runtimes label only the launcher; the workers, {@code node}, carry
   * none). Initializers are never trainer pod sets. In template order.
   */
  public List<PodSet> trainerPodSets() {
    boolean mpi = mlPolicy != null && mlPolicy.getMpi() != null;
    return podSets.stream()
        .filter(ps -> ps.hasAncestor(TrainerConstants.ANCESTOR_TRAINER) || mpi && ps.ancestor().isEmpty())
        .toList();
  }

  /** Replaces every {@link #trainerPodSets() trainer pod set} with {@code change(podSet)}. */
  public void updateTrainerPodSets(UnaryOperator<PodSet> change) {
    trainerPodSets().forEach(ps -> putPodSet(change.apply(ps)));
  }

  /**
   * The number of training nodes of {@code trainJob} on this runtime, as every ML policy plugin applies it: the
   * TrainJob's {@code trainer.numNodes}, else the runtime's {@code mlPolicy.numNodes}, else the count of the pod set
   * with ancestor {@code trainer}, else 1. For MPI it counts the launcher too when it runs as a node.
   */
  public int numNodes(TrainJob trainJob) {
    Trainer trainer = trainJob.getSpec() == null ? null : trainJob.getSpec().getTrainer();
    if (trainer != null && trainer.getNumNodes() != null) {
      return trainer.getNumNodes();
    }
    if (mlPolicy != null && mlPolicy.getNumNodes() != null) {
      return mlPolicy.getNumNodes();
    }
    return podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER).map(PodSet::count).orElse(1);
  }

  /**
   * The pod template of the pod set's replicated job in {@link #template()}: the live object the JobSet plugin
   * copies, for the pod fields {@code PodSet} has no slot for (node selector, tolerations, affinity, priority
   * class, pod labels). Containers, volumes and counts belong to the pod sets: changes to them here are
   * overwritten. Empty when the template has no such job or no pod template.
   */
  public Optional<PodTemplateSpec> podTemplate(String podSetName) {
    List<ReplicatedJob> jobs = template == null ? null : template.getReplicatedJobs();
    if (jobs == null) {
      return Optional.empty();
    }
    return jobs.stream()
        .filter(job -> podSetName.equals(job.getName()))
        .findFirst()
        .map(ReplicatedJob::getTemplate)
        .map(JobTemplateSpec::getSpec)
        .map(JobSpec::getTemplate);
  }

  /** The pod spec of {@link #podTemplate(String)}, as the live object to change. */
  public Optional<PodSpec> podSpec(String podSetName) {
    return podTemplate(podSetName).map(PodTemplateSpec::getSpec);
  }

  /** Replaces the pod set of the same name. */
  public void putPodSet(PodSet podSet) {
    for (int i = 0; i < podSets.size(); i++) {
      if (podSets.get(i).name().equals(podSet.name())) {
        podSets.set(i, podSet);
        return;
      }
    }
    throw new IllegalArgumentException("no pod set named " + podSet.name());
  }

  /** Replaces the named pod set with {@code change(podSet)}; does nothing if there is none. */
  public void updatePodSet(String name, UnaryOperator<PodSet> change) {
    podSet(name).ifPresent(ps -> putPodSet(change.apply(ps)));
  }

  private Optional<PodSet> find(Predicate<PodSet> predicate) {
    return podSets.stream().filter(predicate).findFirst();
  }
}
