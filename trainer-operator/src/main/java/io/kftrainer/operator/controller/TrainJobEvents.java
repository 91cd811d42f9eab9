package io.kftrainer.operator.controller;

import io.kftrainer.runtime.EventMessages;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.Conditions;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes Events (core {@code v1}) about TrainJobs, reported by component {@value #COMPONENT}: one per condition
 * transition, and one per failed reconcile of the TrainJob's objects (upstream's
 * {@value #RESOURCES_CREATION_FAILED}). The OptimizationJob controller records its Events through {@link #record}
 * too, with the same aggregation and rate limit. A transition to {@code Failed=True} or {@code Created=False} is a Warning,
 * any other a Normal Event, with the condition's reason and message.
 *
 * <p>Messages go through {@link EventMessages} (truncated, secret-looking text redacted). Repeated Events are
 * aggregated and a TrainJob's Events are rate limited by an {@link EventCorrelator}, as client-go's recorder does:
 * a repeat patches {@code count} and {@code lastTimestamp} of the Event already recorded. Recording never fails
 * a reconcile: an Event the API server refuses is logged and dropped.
 */
public final class TrainJobEvents {

  /** {@code source.component} and {@code reportingComponent} of every Event. */
  public static final String COMPONENT = "trainer-operator";
  /** Upstream's reason of the Event for a failed build or apply. */
  public static final String RESOURCES_CREATION_FAILED = "TrainJobResourcesCreationFailed";

  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";

  private static final Logger LOG = LoggerFactory.getLogger(TrainJobEvents.class);

  private final KubernetesClient client;
  private final String instance;
  private final Clock clock;
  private final EventCorrelator correlator = new EventCorrelator();

  /**
   * @param instance {@code reportingInstance}: which operator process reports (its leader-election identity)
   */
  public TrainJobEvents(KubernetesClient client, String instance, Clock clock) {
    this.client = client;
    this.instance = instance;
    this.clock = clock;
  }

  /** One Event per changed condition, in the order they changed. */
  void transitions(TrainJob trainJob, List<Condition> transitions) {
    for (Condition condition : transitions) {
      record(trainJob, isBad(condition) ? WARNING : NORMAL, condition.getReason(), condition.getMessage());
    }
  }

  /** The Warning Event of a reconcile whose objects could not be built or applied, worded as upstream's. */
  void resourcesFailed(TrainJob trainJob, String error) {
    record(trainJob, WARNING, RESOURCES_CREATION_FAILED, "TrainJob resources reconciliation failed: " + error);
  }

  /** Records an Event about {@code trainJob} (any object: an OptimizationJob too); never fails. */
  public void record(HasMetadata trainJob, String type, String reason, String message) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    String namespace = trainJob.getMetadata().getNamespace();
    String text = EventMessages.of(message);
    String uid = trainJob.getMetadata().getUid();
    String key = String.join("\u0000", uid, type, reason, text);
    EventCorrelator.Decision decision = correlator.observe(uid, key, now);
    try {
      switch (decision.action()) {
        case DROP -> LOG.debug("Dropping Event {} {} for TrainJob {}/{}: too many Events for it", type, reason,
            namespace, trainJob.getMetadata().getName());
        case PATCH -> {
          if (!patch(namespace, decision, now)) {
            correlator.forget(key);
            create(trainJob, type, reason, text, now, key);
          }
        }
        case CREATE -> create(trainJob, type, reason, text, now, key);
      }
    } catch (RuntimeException e) {
      LOG.warn("Cannot record Event {} {} for TrainJob {}/{}: {}", type, reason, namespace,
          trainJob.getMetadata().getName(), e.getMessage());
    }
  }

  /** Patches the count and last time stamp of the existing Event; false if it is gone. */
  private boolean patch(String namespace, EventCorrelator.Decision decision, Instant now) {
    String patch = "{\"count\":" + decision.count() + ",\"lastTimestamp\":\"" + now + "\"}";
    try {
      // the patch alone: fabric8 reads the object first when it is named by withName(), a get that the RBAC of
      // upstream's chart (events: create, patch) refuses
      Event named = new EventBuilder().withNewMetadata().withNamespace(namespace).withName(decision.name())
          .endMetadata().build();
      return client.v1().events().inNamespace(namespace).resource(named)
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch) != null;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  private void create(HasMetadata trainJob, String type, String reason, String text, Instant now, String key) {
    String namespace = trainJob.getMetadata().getNamespace();
    Event event = new EventBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(trainJob.getMetadata().getName() + "." + Long.toHexString(uniqueSuffix()))
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion(trainJob.getApiVersion())
        .withKind(trainJob.getKind())
        .withNamespace(namespace)
        .withName(trainJob.getMetadata().getName())
        .withUid(trainJob.getMetadata().getUid())
        .withResourceVersion(trainJob.getMetadata().getResourceVersion())
        .endInvolvedObject()
        .withType(type)
        .withReason(reason)
        .withMessage(text)
        .withAction("Reconciling")
        .withCount(1)
        .withFirstTimestamp(now.toString())
        .withLastTimestamp(now.toString())
        .withNewSource().withComponent(COMPONENT).endSource()
        .withReportingComponent(COMPONENT)
        .withReportingInstance(instance)
        .build();
    client.v1().events().inNamespace(namespace).resource(event).create();
    correlator.created(key, event.getMetadata().getName(), now);
  }

  private static boolean isBad(Condition condition) {
    return TrainerConstants.CONDITION_FAILED.equals(condition.getType())
        && Conditions.TRUE.equals(condition.getStatus())
        || TrainerConstants.CONDITION_CREATED.equals(condition.getType())
        && Conditions.FALSE.equals(condition.getStatus());
  }

  /** Like client-go's name suffix (a hex time stamp), made unique among Events of the same instant. */
  private long uniqueSuffix() {
    return clock.millis() * 1_000_000L + ThreadLocalRandom.current().nextLong(1_000_000L);
  }
}
