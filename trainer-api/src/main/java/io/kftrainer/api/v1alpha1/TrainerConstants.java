package io.kftrainer.api.v1alpha1;

/**
 * Wire-level names of the {@code trainer.kubeflow.org/v1alpha1} API: group and kinds, label and annotation keys,
 * well-known container names, condition types and reasons.
 *
 * <p>Only names that are part of the API contract between the TrainJob, its runtimes and the objects built from
 * them live here. Constants used by one runtime plugin only (MPI SSH paths, PET_* variables, ...) stay in that
 * plugin.
 */
public final class TrainerConstants {

  // ---- API group, version and kinds
  public static final String GROUP = "trainer.kubeflow.org";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String TRAINJOB_KIND = "TrainJob";
  public static final String TRAINING_RUNTIME_KIND = "TrainingRuntime";
  public static final String CLUSTER_TRAINING_RUNTIME_KIND = "ClusterTrainingRuntime";

  // ---- spec.managedBy
  /** Default of {@code spec.managedBy}: TrainJobs reconciled by this operator. */
  public static final String DEFAULT_MANAGED_BY = "trainer.kubeflow.org/trainjob-controller";
  /** {@code spec.managedBy} of TrainJobs delegated to Kueue MultiKueue; this operator leaves them alone. */
  public static final String MULTIKUEUE_MANAGED_BY = "kueue.x-k8s.io/multikueue";

  // ---- runtime template labels
  /** Label on runtime replicated job templates naming the TrainJob step they implement. */
  public static final String LABEL_TRAINJOB_ANCESTOR = "trainer.kubeflow.org/trainjob-ancestor-step";
  public static final String ANCESTOR_TRAINER = "trainer";
  public static final String ANCESTOR_DATASET_INITIALIZER = "dataset-initializer";
  public static final String ANCESTOR_MODEL_INITIALIZER = "model-initializer";

  /** Label on runtimes that marks their support status. */
  public static final String LABEL_SUPPORT = "trainer.kubeflow.org/support";
  /** Value of {@link #LABEL_SUPPORT} for deprecated runtimes. */
  public static final String SUPPORT_DEPRECATED = "deprecated";

  // ---- well-known container names
  public static final String CONTAINER_NODE = "node";
  public static final String CONTAINER_DATASET_INITIALIZER = "dataset-initializer";
  public static final String CONTAINER_MODEL_INITIALIZER = "model-initializer";

  // ---- Job annotations
  /** Annotation the Job controller sets on the Pods of an Indexed Job. */
  public static final String ANNOTATION_JOB_COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";

  // ---- status.conditions types
  /** Condition type of TrainJobs whose child objects were created; upstream dropped it before v2.0. */
  public static final String CONDITION_CREATED = "Created";
  public static final String CONDITION_SUSPENDED = "Suspended";
  public static final String CONDITION_COMPLETE = "Complete";
  public static final String CONDITION_FAILED = "Failed";

  // ---- condition reasons and messages
  /** Reason of the Suspended condition while the TrainJob is suspended. */
  public static final String REASON_SUSPENDED = "Suspended";
  /** Reason of the Suspended condition (status False) after the TrainJob was resumed. */
  public static final String REASON_RESUMED = "Resumed";
  /** Reason of the Failed condition when the TrainJob exceeded {@code spec.activeDeadlineSeconds}. */
  public static final String REASON_DEADLINE_EXCEEDED = "DeadlineExceeded";
  /** Reason of the Failed condition when the referenced runtime is not supported. */
  public static final String REASON_TRAINING_RUNTIME_NOT_SUPPORTED = "TrainingRuntimeNotSupported";
  /** Reason of the Created condition once the child objects exist. */
  public static final String REASON_JOBS_CREATED = "JobsCreated";

  public static final String MESSAGE_SUSPENDED = "TrainJob is suspended";
  public static final String MESSAGE_RESUMED = "TrainJob is resumed";
  public static final String MESSAGE_DEADLINE_EXCEEDED = "TrainJob exceeded its active deadline";

  // ---- mlPolicy.mpi.mpiImplementation
  public static final String MPI_IMPLEMENTATION_OPENMPI = "OpenMPI";
  public static final String MPI_IMPLEMENTATION_INTEL = "Intel";
  public static final String MPI_IMPLEMENTATION_MPICH = "MPICH";

  private TrainerConstants() {
  }
}
