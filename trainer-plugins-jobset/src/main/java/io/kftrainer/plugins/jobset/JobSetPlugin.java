package io.kftrainer.plugins.jobset;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.TerminalStatus;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.PreBuildSync;
import io.kftrainer.framework.spi.StatusContext;
import io.kftrainer.framework.spi.TerminalCondition;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import java.util.List;
import java.util.Optional;

/**
 * Turns the runtime info into the TrainJob's JobSet ({@code jobset.x-k8s.io/v1alpha2}), the workload every other
 * plugin's pod sets end up in (upstream's {@code plugins/jobset}).
 *
 * <ul>
 *   <li>{@link PreBuildSync}: each pod set's endpoints ({@link PodEndpoints}) and its count as its job's parallelism
 *       and completions ({@link JobCounts}).</li>
 *   <li>{@link ComponentBuilder}: the JobSet ({@link JobSetBuilder}), unless it already runs: a JobSet that exists
 *       while neither it nor the TrainJob is suspended is left alone, since a running JobSet's pod templates are
 *       immutable.</li>
 *   <li>{@link CustomValidation}: initializer jobs and runtime patches ({@link JobSetValidation}).</li>
 *   <li>{@link TerminalCondition}: {@code Complete} / {@code Failed} and jobs status from the JobSet
 *       ({@link JobSetTerminalStatus}).</li>
 *   <li>{@link WatchExtension}: owned JobSets.</li>
 * </ul>
 */
@AutoService(Plugin.class)
public final class JobSetPlugin
    implements WatchExtension, CustomValidation, PreBuildSync, ComponentBuilder, TerminalCondition {

  public static final String NAME = "JobSet";

  /** Env of an initializer container carrying {@code spec.initializer.dataset|model.storageUri}. */
  public static final String ENV_STORAGE_URI = "STORAGE_URI";

  /** Name of the volume (and mount) initializers share their output through. */
  public static final String VOLUME_INITIALIZER = "initializer";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 300;
  }

  @Override
  public List<Watch> watches() {
    return List.of(Watch.owned(JobSet.class));
  }

  @Override
  public ValidationResult validate(ValidationContext context) {
    return JobSetValidation.validate(context);
  }

  @Override
  public void preBuildSync(BuildContext context) {
    PodEndpoints.sync(context.info(), context.trainJob());
    JobCounts.sync(context.info());
  }

  @Override
  public List<HasMetadata> build(BuildContext context) {
    TrainJob trainJob = context.trainJob();
    Optional<JobSet> existing = context.cluster()
        .get(JobSet.class, trainJob.getMetadata().getNamespace(), trainJob.getMetadata().getName());
    if (existing.isPresent() && !isSuspended(trainJob) && !isSuspended(existing.get())) {
      return List.of();
    }
    return List.of(JobSetBuilder.build(context.info(), trainJob));
  }

  @Override
  public Optional<TerminalStatus> terminalStatus(StatusContext context) {
    TrainJob trainJob = context.trainJob();
    return context.cluster()
        .get(JobSet.class, trainJob.getMetadata().getNamespace(), trainJob.getMetadata().getName())
        .map(JobSetTerminalStatus::of);
  }

  private static boolean isSuspended(TrainJob trainJob) {
    return Boolean.TRUE.equals(trainJob.getSpec().getSuspend());
  }

  private static boolean isSuspended(JobSet jobSet) {
    return jobSet.getSpec() != null && Boolean.TRUE.equals(jobSet.getSpec().getSuspend());
  }
}
