package io.kftrainer.api.jobset.v1alpha2;

/**
 * Wire-level names of the {@code jobset.x-k8s.io/v1alpha2} API (JobSet v0.12.0) that the trainer reads or writes.
 */
public final class JobSetConstants {

  public static final String GROUP = "jobset.x-k8s.io";
  public static final String VERSION = "v1alpha2";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "JobSet";

  /** Reserved {@code spec.managedBy} of the built-in JobSet controller. */
  public static final String CONTROLLER_NAME = "jobset.sigs.k8s.io/jobset-controller";

  // ---- labels and annotations set by the JobSet controller on Jobs and Pods
  public static final String LABEL_JOBSET_NAME = "jobset.sigs.k8s.io/jobset-name";
  public static final String LABEL_JOBSET_UID = "jobset.sigs.k8s.io/jobset-uid";
  public static final String LABEL_REPLICATED_JOB_NAME = "jobset.sigs.k8s.io/replicatedjob-name";
  public static final String LABEL_REPLICATED_JOB_REPLICAS = "jobset.sigs.k8s.io/replicatedjob-replicas";
  public static final String LABEL_GLOBAL_REPLICAS = "jobset.sigs.k8s.io/global-replicas";
  public static final String LABEL_JOB_INDEX = "jobset.sigs.k8s.io/job-index";
  public static final String LABEL_JOB_GLOBAL_INDEX = "jobset.sigs.k8s.io/job-global-index";
  public static final String LABEL_JOB_KEY = "jobset.sigs.k8s.io/job-key";
  public static final String LABEL_COORDINATOR = "jobset.sigs.k8s.io/coordinator";
  public static final String LABEL_GROUP_NAME = "jobset.sigs.k8s.io/group-name";
  public static final String LABEL_GROUP_REPLICAS = "jobset.sigs.k8s.io/group-replicas";
  public static final String LABEL_JOB_GROUP_INDEX = "jobset.sigs.k8s.io/job-group-index";

  // ---- status.conditions types
  public static final String CONDITION_COMPLETED = "Completed";
  public static final String CONDITION_FAILED = "Failed";
  public static final String CONDITION_SUSPENDED = "Suspended";
  public static final String CONDITION_RESTARTING = "RestartingJobSet";
  public static final String CONDITION_STARTUP_POLICY_IN_PROGRESS = "StartupPolicyInProgress";
  public static final String CONDITION_STARTUP_POLICY_COMPLETED = "StartupPolicyCompleted";

  // ---- enumerations
  public static final String DEPENDS_ON_READY = "Ready";
  public static final String DEPENDS_ON_COMPLETE = "Complete";
  public static final String OPERATOR_ALL = "All";
  public static final String OPERATOR_ANY = "Any";
  public static final String STARTUP_ANY_ORDER = "AnyOrder";
  public static final String STARTUP_IN_ORDER = "InOrder";
  public static final String DEFAULT_GROUP_NAME = "default";

  private JobSetConstants() {
  }
}
