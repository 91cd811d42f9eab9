package io.kftrainer.operator.controller;

import io.kftrainer.runtime.EventMessages;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.BuildOutcome;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.framework.runner.PostExecutionResult;
import io.kftrainer.runtime.RuntimeKey;
import io.kftrainer.api.TrainJobDefaults;
import io.kftrainer.runtime.UnsupportedRuntimeException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TrainJob controller (upstream's {@code trainjob_controller.go}). One reconcile:
 *
 * <ol>
 *   <li>skip a TrainJob another controller manages ({@code spec.managedBy});</li>
 *   <li>unless it has finished: find its runtime (its snapshot, else the cached runtime, snapshotted), build its
 *       objects with the plugins and apply those that changed;</li>
 *   <li>compute its status (the plugins' post-execution phase) and write it if it changed;</li>
 *   <li>record an Event per condition transition;</li>
 *   <li>delete the JobSet of a TrainJob that exceeded its deadline;</li>
 *   <li>requeue for the deadline, or fail the reconcile (JOSDK retries with back-off) when the build failed.</li>
 * </ol>
 *
 * Decisions belong to the {@link PhaseRunner} and the plugins; this class only sequences them and does the I/O,
 * reading every cluster object from the informer caches ({@link CacheObjectLookup}). JOSDK serializes reconciles
 * of one TrainJob and filters TrainJob events that do not change its generation.
 */
@ControllerConfiguration(name = TrainJobReconciler.NAME)
public final class TrainJobReconciler implements Reconciler<TrainJob> {

  public static final String NAME = "trainjob-controller";

  /**
   * The field manager of every write of the operator (children, status, finalizers): upstream's field owner
   * {@code trainer}, so that ownership carries over between the two operators.
   */
  public static final String FIELD_MANAGER = "trainer";

  /** Condition reason of a build that failed because a plugin threw. */
  public static final String REASON_BUILD_FAILED = "BuildFailed";
  /** Condition reason of a build that failed because the runtime snapshot cannot be used. */
  public static final String REASON_SNAPSHOT_INVALID = "RuntimeSnapshotInvalid";
  /** Condition reason of a build whose objects the API server refused. */
  public static final String REASON_APPLY_FAILED = "ApplyFailed";
  /** Event reason of a plugin failure after the build, when computing the status. */
  public static final String REASON_PLUGIN_FAILED = "PluginFailed";

  private static final Logger LOG = LoggerFactory.getLogger(TrainJobReconciler.class);

  private final PhaseRunner runner;
  private final TrainJobEventSources eventSources;
  private final CacheObjectLookup cache;
  private final RuntimeSnapshots snapshots;
  private final ChildApplier children;
  private final StatusWriter status;
  private final TrainJobEvents events;
  private final Clock clock;

  public TrainJobReconciler(PhaseRunner runner, TrainJobEventSources eventSources, CacheObjectLookup cache,
      RuntimeSnapshots snapshots, KubernetesClient client, TrainJobEvents events, Clock clock) {
    this.runner = runner;
    this.eventSources = eventSources;
    this.cache = cache;
    this.snapshots = snapshots;
    this.children = new ChildApplier(client, cache);
    this.status = new StatusWriter(client);
    this.events = events;
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, TrainJob>> prepareEventSources(EventSourceContext<TrainJob> context) {
    return eventSources.create(context);
  }

  @Override
  public UpdateControl<TrainJob> reconcile(TrainJob observed, Context<TrainJob> context) {
    TrainJob trainJob = TrainJobDefaults.defaulted(observed);
    if (!isManagedHere(trainJob)) {
      return UpdateControl.noUpdate();
    }
    BuildOutcome outcome = PhaseRunner.isFinished(trainJob) ? BuildOutcome.finished() : reconcileChildren(trainJob);
    PostExecutionResult result = runner.runPostExecution(trainJob, outcome, cache, clock.instant());
    status.write(observed, result.status(), context);
    events.transitions(trainJob, result.transitions());
    if (hasExceededDeadline(result)) {
      children.deleteIfPresent(JobSet.class, trainJob);
    }
    if (outcome instanceof BuildOutcome.BuildFailed failed) {
      throw new BuildFailedException(failed.message());
    }
    return result.requeueAfter()
        .map(after -> UpdateControl.<TrainJob>noUpdate().rescheduleAfter(after))
        .orElseGet(UpdateControl::noUpdate);
  }

  /**
   * A failure that escaped {@link #reconcile}: a plugin failure of the post-execution phase gets a Warning Event
   * {@value #REASON_PLUGIN_FAILED} (build failures already have theirs); JOSDK then retries with back-off.
   */
  @Override
  public ErrorStatusUpdateControl<TrainJob> updateErrorStatus(TrainJob trainJob, Context<TrainJob> context,
      Exception e) {
    if (e instanceof PluginException) {
      events.record(trainJob, TrainJobEvents.WARNING, REASON_PLUGIN_FAILED, e.getMessage());
    }
    return ErrorStatusUpdateControl.defaultErrorProcessing();
  }

  /**
   * Finds the runtime, builds the objects and applies those that changed. A failure's message goes into a condition
   * and an Event, cleaned like an Event message: it may quote anything a plugin or the API server said.
   */
  private BuildOutcome reconcileChildren(TrainJob trainJob) {
    try {
      Optional<RuntimeSource> runtime = snapshots.runtimeOf(trainJob);
      if (runtime.isEmpty()) {
        FieldError missing = RuntimeKey.of(trainJob).notFound();
        return BuildOutcome.runtimeUnavailable(TrainerConstants.REASON_TRAINING_RUNTIME_NOT_SUPPORTED,
            missing.field() + ": " + missing.message());
      }
      children.applyAll(runner.runBuild(runtime.get(), trainJob, cache));
      return BuildOutcome.created();
    } catch (UnsupportedRuntimeException e) {
      return BuildOutcome.runtimeUnavailable(TrainerConstants.REASON_TRAINING_RUNTIME_NOT_SUPPORTED, e.getMessage());
    } catch (PluginException | RuntimeSnapshotException | ChildApplyException | KubernetesClientException e) {
      String error = EventMessages.of(e.getMessage());
      LOG.warn("Cannot reconcile the objects of TrainJob {}/{}: {}", trainJob.getMetadata().getNamespace(),
          trainJob.getMetadata().getName(), error);
      events.resourcesFailed(trainJob, error);
      return BuildOutcome.buildFailed(reasonOf(e), error);
    }
  }

  private static boolean isManagedHere(TrainJob trainJob) {
    return trainJob.getSpec() != null && TrainerConstants.DEFAULT_MANAGED_BY.equals(trainJob.getSpec().getManagedBy());
  }

  private static boolean hasExceededDeadline(PostExecutionResult result) {
    return Conditions.find(result.status().getConditions(), TrainerConstants.CONDITION_FAILED)
        .filter(c -> Conditions.TRUE.equals(c.getStatus()))
        .filter(c -> TrainerConstants.REASON_DEADLINE_EXCEEDED.equals(c.getReason()))
        .isPresent();
  }

  private static String reasonOf(RuntimeException e) {
    if (e instanceof PluginException) {
      return REASON_BUILD_FAILED;
    }
    return e instanceof RuntimeSnapshotException ? REASON_SNAPSHOT_INVALID : REASON_APPLY_FAILED;
  }

  /** Ends a reconcile whose build failed after its status was written, so that JOSDK retries with back-off. */
  static final class BuildFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BuildFailedException(String message) {
      super(message);
    }
  }
}
