package io.kftrainer.operator.optimization;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.ResourceCache;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.kftrainer.api.v1alpha1.OptimizationConstants;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationJobStatus;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.runner.Conditions;
import io.kftrainer.operator.controller.CompactObjects;
import io.kftrainer.operator.controller.StatusWriter;
import io.kftrainer.operator.controller.TrainJobEvents;
import io.kftrainer.optimization.CreationFailure;
import io.kftrainer.optimization.OptimizationPhase;
import io.kftrainer.optimization.TrialEvent;
import io.kftrainer.optimization.TrialPlan;
import io.kftrainer.optimization.TrialPlanner;
import io.kftrainer.runtime.EventMessages;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OptimizationJob controller (KEP-3562, with KEP-3744's trial history). Decisions belong to
 * {@link TrialPlanner} (trainer-optimization); this class observes and does the I/O, in the order the plan says.
 * One reconcile:
 *
 * <ol>
 *   <li>read the OptimizationJob's trial TrainJobs from the informer (TrainJobs labelled
 *       {@value OptimizationConstants#LABEL_OPTIMIZATION_JOB}, mapped to their controller owner) and what this process
 *       knows of its own creations ({@link TrialCreations});</li>
 *   <li>plan; set the conditions from the plan's phase ({@code Running}, then {@code Complete} or {@code Failed});</li>
 *   <li>write the status if it changed: the new trials' records are stored before their TrainJobs exist;</li>
 *   <li>create the new trials' TrainJobs, delete the ones early stopping stopped;</li>
 *   <li>record an Event per trial started or ended and per condition transition.</li>
 * </ol>
 *
 * JOSDK serializes reconciles of one OptimizationJob and retries a failed one with back-off; a trial TrainJob's
 * every change (conditions, reported metrics) requeues its OptimizationJob. A TrainJob the API server refuses as
 * invalid fails the OptimizationJob; other create errors are retried with the same name.
 *
 * <p>The OptimizationJob itself is never suspended here (upstream's spec has no such field): a template with
 * {@code suspend: true} creates suspended trials, which hold their {@code parallelTrials} slot until resumed (by
 * Kueue, or by hand).
 */
@ControllerConfiguration(name = OptimizationJobReconciler.NAME)
public final class OptimizationJobReconciler implements Reconciler<OptimizationJob> {

  public static final String NAME = "optimizationjob-controller";

  private static final Logger LOG = LoggerFactory.getLogger(OptimizationJobReconciler.class);

  private final KubernetesClient client;
  private final StatusWriter status;
  private final TrainJobEvents events;
  private final Clock clock;
  private final TrialCreations creations = new TrialCreations();
  private volatile InformerEventSource<TrainJob, OptimizationJob> trials;
  private volatile ResourceCache<OptimizationJob> primaryCache;

  /** The OptimizationJobs in the controller's cache; none before its event sources are prepared. */
  public List<OptimizationJob> cached() {
    ResourceCache<OptimizationJob> cache = primaryCache;
    return cache == null ? List.of() : cache.list().toList();
  }

  public OptimizationJobReconciler(KubernetesClient client, TrainJobEvents events, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.status = new StatusWriter(client);
    this.events = Objects.requireNonNull(events, "events");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The trials' informer: TrainJobs labelled with an OptimizationJob's name only, so the cache never holds the
   * cluster's other TrainJobs; each event requeues the TrainJob's controller owner.
   */
  @Override
  public List<EventSource<?, OptimizationJob>> prepareEventSources(EventSourceContext<OptimizationJob> context) {
    var configuration = InformerEventSourceConfiguration.from(TrainJob.class, OptimizationJob.class)
        .withName("optimizationjob-trials")
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(OptimizationJob.class, false))
        .withLabelSelector(OptimizationConstants.LABEL_OPTIMIZATION_JOB)
        .withNamespacesInheritedFromController()
        .withItemStore(CompactObjects.itemStore());
    trials = new InformerEventSource<>(configuration.build(), context);
    primaryCache = context.getPrimaryCache();
    return List.of(trials);
  }

  @Override
  public UpdateControl<OptimizationJob> reconcile(OptimizationJob job, Context<OptimizationJob> context) {
    String uid = job.getMetadata().getUid();
    Map<String, TrainJob> trainJobs = context.getSecondaryResources(TrainJob.class).stream()
        .filter(trainJob -> isControlledBy(trainJob, uid))
        .collect(Collectors.toMap(trainJob -> trainJob.getMetadata().getName(), Function.identity()));
    Map<String, CreationFailure> refusals = creations.refusals(uid);
    TrialPlan plan = TrialPlanner.plan(new TrialPlanner.Input(job, trainJobs,
        creations.pending(uid, trainJobs.keySet()), refusals, clock.instant()));

    OptimizationJobStatus next = plan.status();
    List<Condition> conditions = next.getConditions() == null ? new ArrayList<>() : new ArrayList<>(next.getConditions());
    List<Condition> transitions = applyPhase(conditions, plan.phase());
    next.setConditions(conditions);
    status.write(job, next, context);
    creations.recorded(uid, refusals.keySet());

    CreationFailure refused = null;
    for (TrainJob trial : plan.creations()) {
      if (refused != null && refused.templateRejected()) {
        // the next trials are built from the same template: they are not sent, and fail with the first
        creations.refused(uid, trial.getMetadata().getName(), new CreationFailure("not created: the API server "
            + "refused the trial TrainJob of the same template: " + refused.message(), false));
        continue;
      }
      CreationFailure failure = create(job, trial);
      refused = refused != null ? refused : failure;
    }
    for (String name : plan.deletions()) {
      delete(job, name);
    }
    for (TrialEvent event : plan.events()) {
      events.record(job, event.warning() ? TrainJobEvents.WARNING : TrainJobEvents.NORMAL, event.reason(),
          event.message());
    }
    for (Condition condition : transitions) {
      boolean bad = OptimizationConstants.CONDITION_FAILED.equals(condition.getType());
      events.record(job, bad ? TrainJobEvents.WARNING : TrainJobEvents.NORMAL, condition.getReason(),
          condition.getMessage());
    }
    // a refusal is written by the next reconcile, at once rather than at the next trial event
    return refused != null ? UpdateControl.<OptimizationJob>noUpdate().rescheduleAfter(Duration.ZERO)
        : UpdateControl.noUpdate();
  }

  /**
   * Sets the conditions of {@code phase}: {@code Running=True} while running; once terminal {@code Running=False}
   * and the terminal type {@code True}, with the terminal reason and message. Returns the terminal condition if it
   * just became true, for its Event.
   */
  private List<Condition> applyPhase(List<Condition> conditions, OptimizationPhase phase) {
    String message = EventMessages.of(phase.message());
    if (!phase.isTerminal()) {
      Conditions.set(conditions, OptimizationConstants.CONDITION_RUNNING, Conditions.TRUE, phase.reason(), message,
          clock.instant());
      return List.of();
    }
    boolean wasTerminal = Conditions.isTrue(conditions, phase.type());
    Conditions.set(conditions, OptimizationConstants.CONDITION_RUNNING, Conditions.FALSE, phase.reason(), message,
        clock.instant());
    Conditions.set(conditions, phase.type(), Conditions.TRUE, phase.reason(), message, clock.instant());
    return wasTerminal ? List.of() : Conditions.find(conditions, phase.type()).map(List::of).orElse(List.of());
  }

  /**
   * Creates a trial's TrainJob, expected from now on; the refusal if the API server refused it for good, else null.
   * A name already taken by this OptimizationJob's TrainJob is the cache lagging behind a previous create: nothing
   * to do.
   */
  private CreationFailure create(OptimizationJob job, TrainJob trial) {
    String uid = job.getMetadata().getUid();
    String name = trial.getMetadata().getName();
    creations.expect(uid, name);
    try {
      TrainJob created = client.resource(trial).create();
      // the informer's cache has it from now on: the next reconcile sees it even before the watch event
      trials.handleRecentResourceCreate(ResourceID.fromResource(created), created);
      creations.created(uid, name);
      LOG.info("Created trial TrainJob {}/{} of OptimizationJob {}", trial.getMetadata().getNamespace(), name,
          job.getMetadata().getName());
      return null;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        TrainJob existing = client.resources(TrainJob.class).inNamespace(trial.getMetadata().getNamespace())
            .withName(name).get();
        if (existing == null || isControlledBy(existing, uid)) {
          return null;
        }
        CreationFailure taken = new CreationFailure("a TrainJob named " + name
            + " exists and does not belong to this OptimizationJob", false);
        creations.refused(uid, name, taken);
        return taken;
      }
      if (e.getCode() == HttpURLConnection.HTTP_BAD_REQUEST || e.getCode() == 422) {
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
            : e.getMessage();
        LOG.warn("The API server refused trial TrainJob {}/{}: {}", trial.getMetadata().getNamespace(), name,
            EventMessages.of(message));
        CreationFailure invalid = new CreationFailure(message, true);
        creations.refused(uid, name, invalid);
        return invalid;
      }
      throw e;
    }
  }

  private void delete(OptimizationJob job, String name) {
    client.resources(TrainJob.class).inNamespace(job.getMetadata().getNamespace()).withName(name)
        .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
    LOG.info("Deleted trial TrainJob {}/{} of OptimizationJob {}: stopped early", job.getMetadata().getNamespace(),
        name, job.getMetadata().getName());
  }

  private static boolean isControlledBy(TrainJob trainJob, String uid) {
    return trainJob.getMetadata().getOwnerReferences() != null && trainJob.getMetadata().getOwnerReferences().stream()
        .anyMatch(owner -> Boolean.TRUE.equals(owner.getController()) && uid.equals(owner.getUid()));
  }
}
