package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.OperatorException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.RunPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.BuildOutcome;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.framework.runner.PostExecutionResult;
import io.kftrainer.runtime.EventMessages;
import io.kftrainer.runtime.RuntimeKey;
import io.kftrainer.runtime.RuntimeResolver;
import io.kftrainer.runtime.UnsupportedRuntimeException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TrainJob controller (upstream's {@code trainjob_controller.go}). One reconcile:
 *
 * <ol>
 *   <li>skip a TrainJob another controller manages ({@code spec.managedBy});</li>
 *   <li>unless it has finished: find its runtime (its snapshot, else the runtime it refers to, snapshotted now),
 *       build its objects with the plugins and apply those that changed;</li>
 *   <li>report its status: compute it (the plugins' post-execution phase, which also decides the deadline), write
 *       it if it changed, record an Event per condition transition, delete the JobSet of a TrainJob past its
 *       deadline;</li>
 *   <li>report the JobSet's restarts not reported yet: an Event each, and the annotation
 *       {@value JobSetRestarts#ANNOTATION} ({@link JobSetRestarts});</li>
 *   <li>delete a finished TrainJob whose {@code ttlSecondsAfterFinished} has passed
 *       ({@link FinishedTrainJobCleanup});</li>
 *   <li>requeue for the deadline or the TTL, whichever comes first.</li>
 * </ol>
 *
 * The deadline and the TTL default to the runtime's {@code spec.runPolicy} (KEP-2899), read from the TrainJob's
 * runtime snapshot.
 *
 * A build that fails throws {@link BuildFailedException}: JOSDK calls {@link #updateErrorStatus}, which reports the
 * failure as step 3 reports a success, and retries the reconcile with back-off. Either way the status is written
 * by the one {@link StatusWriter}.
 *
 * <p>Decisions belong to the {@link PhaseRunner} and the plugins; this class only sequences them and does the I/O,
 * reading every cluster object from the informer caches ({@link CacheObjectLookup}). JOSDK serializes reconciles
 * of one TrainJob and filters TrainJob events that do not change its generation.
 *
 * <p>The TrainJob is used as JOSDK hands it over (its own copy of the cached one), with no defaulting of its own:
 * the API server sets the TrainJob CRD's defaults ({@code managedBy}, {@code runtimeRef}, {@code suspend}) when it
 * stores a TrainJob and again when it reads one back, so every cached TrainJob has them. Runtime snapshots are
 * the exception, and {@link RuntimeSnapshots} defaults them.
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
  private final RuntimeResolver runtimes;
  private final RuntimeSnapshots snapshots;
  private final ChildApplier children;
  private final StatusWriter status;
  private final TrainJobEvents events;
  private final Clock clock;
  private final ObjectsCreated objectsCreated;
  private final FinishedTrainJobCleanup cleanup;
  private final JobSetRestarts restarts;
  private final TrainJobLifecycle lifecycle;
  private final ReconcileFailureLog failures = new ReconcileFailureLog();

  public TrainJobReconciler(PhaseRunner runner, TrainJobEventSources eventSources, CacheObjectLookup cache,
      RuntimeResolver runtimes, KubernetesClient client, TrainJobEvents events, Clock clock) {
    this(runner, eventSources, cache, runtimes, client, events, clock, ObjectsCreated.NONE);
  }

  /** @param objectsCreated told what each reconcile created ({@code local}'s progress line) */
  public TrainJobReconciler(PhaseRunner runner, TrainJobEventSources eventSources, CacheObjectLookup cache,
      RuntimeResolver runtimes, KubernetesClient client, TrainJobEvents events, Clock clock,
      ObjectsCreated objectsCreated) {
    this(runner, eventSources, cache, runtimes, client, events, clock, objectsCreated, JobSetRestarts.Listener.NONE);
  }

  /** @param restartsListener told of each restart reported ({@code local}'s progress line) */
  public TrainJobReconciler(PhaseRunner runner, TrainJobEventSources eventSources, CacheObjectLookup cache,
      RuntimeResolver runtimes, KubernetesClient client, TrainJobEvents events, Clock clock,
      ObjectsCreated objectsCreated, JobSetRestarts.Listener restartsListener) {
    this(runner, eventSources, cache, runtimes, client, events, clock, objectsCreated, restartsListener,
        TrainJobLifecycle.NONE);
  }

  /** @param lifecycle told of each first build and status written (the metrics of TrainJobs' lives) */
  public TrainJobReconciler(PhaseRunner runner, TrainJobEventSources eventSources, CacheObjectLookup cache,
      RuntimeResolver runtimes, KubernetesClient client, TrainJobEvents events, Clock clock,
      ObjectsCreated objectsCreated, JobSetRestarts.Listener restartsListener, TrainJobLifecycle lifecycle) {
    this.lifecycle = lifecycle;
    this.runner = runner;
    this.eventSources = eventSources;
    this.cache = cache;
    this.runtimes = runtimes;
    this.snapshots = new RuntimeSnapshots(cache, client);
    this.children = new ChildApplier(client, cache);
    this.status = new StatusWriter(client);
    this.events = events;
    this.clock = clock;
    this.objectsCreated = objectsCreated;
    this.cleanup = new FinishedTrainJobCleanup(client);
    this.restarts = new JobSetRestarts(client, events, restartsListener);
  }

  @Override
  public List<EventSource<?, TrainJob>> prepareEventSources(EventSourceContext<TrainJob> context) {
    return eventSources.create(context, restarts::record);
  }

  @Override
  public UpdateControl<TrainJob> reconcile(TrainJob trainJob, Context<TrainJob> context) {
    if (!isManagedHere(trainJob)) {
      return UpdateControl.noUpdate();
    }
    Built built = PhaseRunner.isFinished(trainJob) ? new Built(BuildOutcome.finished(), finishedRunPolicy(trainJob))
        : reconcileChildren(trainJob);
    PostExecutionResult result = reportStatus(trainJob, built.outcome(), context, built.runPolicy());
    restarts.report(trainJob, cache.get(JobSet.class, trainJob.getMetadata().getNamespace(),
        trainJob.getMetadata().getName()), context);
    Optional<Duration> ttl = cleanup.check(trainJob, result.status(), built.runPolicy(), clock.instant());
    return Stream.of(result.requeueAfter(), ttl).flatMap(Optional::stream).min(Comparator.naturalOrder())
        .map(after -> UpdateControl.<TrainJob>noUpdate().rescheduleAfter(after))
        .orElseGet(UpdateControl::noUpdate);
  }

  /** What a reconcile's build left: its outcome, and the runtime's {@code runPolicy} (null without one). */
  private record Built(BuildOutcome outcome, RunPolicy runPolicy) {
  }

  /**
   * The {@code runPolicy} a finished TrainJob still needs: its runtime snapshot's, for the TTL, unless the TrainJob
   * sets its own (the deadline is over); null when there is none, or none that can be read (a finished TrainJob is
   * not built again, so a broken snapshot is not worth a failed reconcile).
   */
  private RunPolicy finishedRunPolicy(TrainJob trainJob) {
    if (trainJob.getSpec().getTtlSecondsAfterFinished() != null) {
      return null;
    }
    try {
      return snapshots.find(trainJob).map(runtime -> runtime.spec().getRunPolicy()).orElse(null);
    } catch (RuntimeException e) {
      LOG.debug("No runtime defaults for finished TrainJob {}/{}: {}", trainJob.getMetadata().getNamespace(),
          trainJob.getMetadata().getName(), e.getMessage());
      return null;
    }
  }

  /**
   * A reconcile that threw. A failed build is reported like a finished one ({@link #reportStatus}); a plugin
   * failure of the post-execution phase, which leaves no status to write, gets a Warning Event
   * {@value #REASON_PLUGIN_FAILED}. JOSDK then retries with back-off.
   */
  @Override
  public ErrorStatusUpdateControl<TrainJob> updateErrorStatus(TrainJob trainJob, Context<TrainJob> context,
      Exception e) {
    Throwable failure = thrownByReconcile(e);
    if (failure instanceof BuildFailedException buildFailed) {
      try {
        reportStatus(trainJob, buildFailed.outcome(), context, buildFailed.runPolicy());
      } catch (PluginException statusFailure) {
        failure = statusFailure;
      }
    }
    if (failure instanceof PluginException) {
      events.record(trainJob, TrainJobEvents.WARNING, REASON_PLUGIN_FAILED, failure.getMessage());
    }
    return ErrorStatusUpdateControl.defaultErrorProcessing();
  }

  /**
   * Finds the runtime, builds the objects and applies those that changed. A failure's message goes into an Event
   * and the {@link BuildFailedException}, cleaned like an Event message: it may quote anything a plugin or the API
   * server said.
   *
   * @throws BuildFailedException if a plugin, the runtime snapshot or the API server failed the build
   */
  private Built reconcileChildren(TrainJob trainJob) {
    List<HasMetadata> created = new ArrayList<>();
    Optional<RuntimeSource> runtime = Optional.empty();
    try {
      runtime = runtimeOf(trainJob, created::add);
      if (runtime.isEmpty()) {
        FieldError missing = RuntimeKey.of(trainJob).notFound();
        return new Built(BuildOutcome.runtimeUnavailable(TrainerConstants.REASON_TRAINING_RUNTIME_NOT_SUPPORTED,
            missing.field() + ": " + missing.message()), null);
      }
      children.applyAll(runner.runBuild(runtime.get(), trainJob, cache), created::add);
      failures.succeeded(trainJob);
      return new Built(BuildOutcome.created(), runPolicy(runtime));
    } catch (UnsupportedRuntimeException e) {
      return new Built(BuildOutcome.runtimeUnavailable(TrainerConstants.REASON_TRAINING_RUNTIME_NOT_SUPPORTED,
          e.getMessage()), runPolicy(runtime));
    } catch (PluginException | RuntimeSnapshotException | ChildApplyException | KubernetesClientException e) {
      String error = EventMessages.of(e.getMessage());
      failures.failed(trainJob, error, e);
      events.resourcesFailed(trainJob, error);
      throw new BuildFailedException(new BuildOutcome.BuildFailed(reasonOf(e), error), runPolicy(runtime));
    } finally {
      // what was created before an apply failed exists too
      tell(trainJob, created);
    }
  }

  private static RunPolicy runPolicy(Optional<RuntimeSource> runtime) {
    return runtime.map(found -> found.spec().getRunPolicy()).orElse(null);
  }

  private void tell(TrainJob trainJob, List<HasMetadata> created) {
    if (created.isEmpty()) {
      return;
    }
    try {
      objectsCreated.created(trainJob, List.copyOf(created));
    } catch (RuntimeException e) {
      LOG.debug("Cannot report the objects created for TrainJob {}/{}", trainJob.getMetadata().getNamespace(),
          trainJob.getMetadata().getName(), e);
    }
  }

  /**
   * The runtime the TrainJob is built from, for its whole life: its snapshot; on its first build, a snapshot taken
   * now of the runtime it refers to. Empty when it has neither.
   */
  private Optional<RuntimeSource> runtimeOf(TrainJob trainJob, Consumer<HasMetadata> created) {
    Optional<RuntimeSource> snapshot = snapshots.find(trainJob);
    if (snapshot.isPresent()) {
      return snapshot;
    }
    Optional<RuntimeSource> taken = runtimes.resolve(trainJob).map(runtime -> snapshots.take(trainJob, runtime,
        created));
    taken.ifPresent(runtime -> lifecycle.firstBuilt(trainJob));
    return taken;
  }

  /**
   * Computes the status from the build's outcome, writes it if it changed and records an Event per condition
   * transition. The JobSet of a TrainJob that failed on its deadline is deleted first (on every reconcile until it
   * is gone: a delete that failed is tried again), as upstream does: whoever sees {@code Failed DeadlineExceeded}
   * no longer finds the JobSet.
   */
  private PostExecutionResult reportStatus(TrainJob trainJob, BuildOutcome outcome, Context<TrainJob> context,
      RunPolicy runPolicy) {
    Instant now = clock.instant();
    TrainJobPhase before = TrainJobPhase.of(trainJob.getStatus());
    PostExecutionResult result = runner.runPostExecution(trainJob, outcome, cache, now, runPolicy);
    restarts.nameFailedPod(result, cache.get(JobSet.class, trainJob.getMetadata().getNamespace(),
        trainJob.getMetadata().getName()));
    if (result.deadlineExceeded()) {
      children.deleteIfPresent(JobSet.class, trainJob);
    }
    status.write(trainJob, result.status(), context);
    lifecycle.statusWritten(trainJob, before, result.status(), result.transitions(), now);
    events.transitions(trainJob, result.transitions());
    return result;
  }

  /** What {@link #reconcile} threw: JOSDK's Micrometer metrics hand it over wrapped in an OperatorException. */
  private static Throwable thrownByReconcile(Exception e) {
    Throwable thrown = e;
    while (thrown instanceof OperatorException && thrown.getCause() != null) {
      thrown = thrown.getCause();
    }
    return thrown;
  }

  private static boolean isManagedHere(TrainJob trainJob) {
    return trainJob.getSpec() != null && TrainerConstants.DEFAULT_MANAGED_BY.equals(trainJob.getSpec().getManagedBy());
  }

  private static String reasonOf(RuntimeException e) {
    if (e instanceof PluginException) {
      return REASON_BUILD_FAILED;
    }
    return e instanceof RuntimeSnapshotException ? REASON_SNAPSHOT_INVALID : REASON_APPLY_FAILED;
  }

  /**
   * A build that failed, thrown out of {@link #reconcile} so that JOSDK reports it ({@link #updateErrorStatus}) and
   * retries with back-off. Its message is the cleaned one of the status and the Event; the cause is not attached,
   * since its message may hold what the cleaning removed.
   */
  static final class BuildFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient BuildOutcome.BuildFailed outcome;
    private final transient RunPolicy runPolicy;

    BuildFailedException(BuildOutcome.BuildFailed outcome, RunPolicy runPolicy) {
      super(outcome.message());
      this.outcome = outcome;
      this.runPolicy = runPolicy;
    }

    BuildOutcome.BuildFailed outcome() {
      return outcome;
    }

    /** The runtime's defaults, when the runtime was found before the build failed; else null. */
    RunPolicy runPolicy() {
      return runPolicy;
    }
  }
}
