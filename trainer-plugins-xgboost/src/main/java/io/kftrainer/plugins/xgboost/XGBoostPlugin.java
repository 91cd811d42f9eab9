package io.kftrainer.plugins.xgboost;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.GpusPerNode;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Distributed XGBoost with the collective (Rabit) tracker (upstream's {@code XGBoost} plugin), for runtimes with
 * {@code mlPolicy.xgboost}.
 *
 * <p>The trainer pod set runs {@code trainer.numNodes} pods when the TrainJob sets it; its container {@code node}
 * gets {@code DMLC_TRACKER_URI} ({@link TrackerAddress}), {@code DMLC_TRACKER_PORT=29500}, {@code DMLC_TASK_ID} (the
 * pod's completion index) and {@code DMLC_NUM_WORKER}, and port 29500. A GPU node runs one worker per GPU, a CPU
 * node one worker, so {@code DMLC_NUM_WORKER} is the pod count times the GPUs per node ({@link GpusPerNode}), or
 * the pod count without GPUs.
 *
 * <p>The TrainJob's {@code trainer.env} is upserted first, then the variables above, so the TrainJob's come before
 * them (upstream's PlainML plugin, which also runs for XGBoost runtimes there, does the first step; here PlainML
 * leaves runtimes with an ML policy to its plugin). Unlike upstream, the variables are injected also when the
 * TrainJob has no {@code spec.trainer}.
 *
 * <p>Validate: a {@code trainer.env} entry named like one of the four variables is forbidden.
 */
@AutoService(Plugin.class)
public final class XGBoostPlugin implements EnforceMLPolicy, CustomValidation {

  public static final String NAME = "XGBoost";

  static final String ENV_TRACKER_URI = "DMLC_TRACKER_URI";
  static final String ENV_TRACKER_PORT = "DMLC_TRACKER_PORT";
  static final String ENV_TASK_ID = "DMLC_TASK_ID";
  static final String ENV_NUM_WORKER = "DMLC_NUM_WORKER";
  static final Set<String> RESERVED_ENV = Set.of(ENV_TRACKER_URI, ENV_TRACKER_PORT, ENV_TASK_ID, ENV_NUM_WORKER);

  private static final String COMPLETION_INDEX_FIELD_PATH =
      "metadata.annotations['" + TrainerConstants.ANNOTATION_JOB_COMPLETION_INDEX + "']";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 140;
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    RuntimeInfo info = context.info();
    if (!hasXGBoostPolicy(info)) {
      return;
    }
    Optional<PodSet> trainerPodSet = info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER);
    if (trainerPodSet.isEmpty()) {
      return;
    }
    TrainJob trainJob = context.trainJob();
    Trainer trainer = trainJob.getSpec().getTrainer();
    PodSet podSet = trainer != null && trainer.getNumNodes() != null
        ? trainerPodSet.get().withCount(trainer.getNumNodes()) : trainerPodSet.get();
    int workersPerNode = Math.max(1, GpusPerNode.of(info, trainJob));
    List<EnvVar> env = List.of(
        value(ENV_TRACKER_URI, TrackerAddress.of(info, trainJob).host()),
        value(ENV_TRACKER_PORT, Integer.toString(TrackerAddress.PORT)),
        new EnvVarBuilder().withName(ENV_TASK_ID)
            .withNewValueFrom().withNewFieldRef().withFieldPath(COMPLETION_INDEX_FIELD_PATH).endFieldRef()
            .endValueFrom().build(),
        value(ENV_NUM_WORKER, Long.toString((long) podSet.count() * workersPerNode)));
    List<EnvVar> trainJobEnv = trainer == null || trainer.getEnv() == null ? List.of() : trainer.getEnv();
    info.putPodSet(podSet.withContainer(TrainerConstants.CONTAINER_NODE, c -> c.withEnvUpserted(trainJobEnv)
        .withEnvUpserted(env)
        .withPortAdded(new ContainerPortBuilder().withContainerPort(TrackerAddress.PORT).build())));
  }

  @Override
  public ValidationResult validate(ValidationContext context) {
    Trainer trainer = context.trainJob().getSpec().getTrainer();
    if (!hasXGBoostPolicy(context.info()) || trainer == null || trainer.getEnv() == null) {
      return ValidationResult.ok();
    }
    List<FieldError> errors = new ArrayList<>();
    FieldPath envPath = FieldPath.of("spec", "trainer", "env");
    for (int i = 0; i < trainer.getEnv().size(); i++) {
      String name = trainer.getEnv().get(i).getName();
      if (RESERVED_ENV.contains(name)) {
        errors.add(FieldError.forbidden(envPath.index(i), name + " is reserved for the XGBoost runtime"));
      }
    }
    return ValidationResult.of(errors);
  }

  private static boolean hasXGBoostPolicy(RuntimeInfo info) {
    return info.mlPolicy().map(MLPolicy::getXgboost).isPresent();
  }

  private static EnvVar value(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }
}
