package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kftrainer.api.v1alpha1.RunPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.Conditions;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ttlSecondsAfterFinished} (KEP-2899, kubeflow/trainer PR #3824 and issue #4052): a TrainJob that finished
 * ({@code Complete} or {@code Failed}) is deleted once its TTL has passed since that condition's
 * {@code lastTransitionTime}; its JobSet, Pods, Services and ConfigMaps go with it by garbage collection.
 *
 * <p>The TTL is the TrainJob's {@code spec.ttlSecondsAfterFinished}, else its runtime's
 * {@code spec.runPolicy.ttlSecondsAfterFinished} (from the TrainJob's runtime snapshot), else none. Nothing is kept
 * in memory: each reconcile of a finished TrainJob computes the time left from its status and asks to be requeued
 * then, so an operator that restarted (its start-up reconciles every TrainJob) deletes at the same moment, or at
 * once if the TTL ran out while it was down. No polling.
 *
 * <p>As Kubernetes' TTL-after-finished controller: before deleting, the TrainJob is read again from the API server
 * (the TTL is mutable, and the cache may be behind an edit), and the delete is conditional on the
 * {@code resourceVersion} read, with foreground propagation (the TrainJob is gone once its children are).
 */
final class FinishedTrainJobCleanup {

  private static final Logger LOG = LoggerFactory.getLogger(FinishedTrainJobCleanup.class);

  /** When the clock says the TTL has passed but the fresh read disagrees by a hair: look again soon. */
  static final Duration RETRY = Duration.ofSeconds(1);

  private final KubernetesClient client;

  FinishedTrainJobCleanup(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Deletes the TrainJob if its TTL after finishing has passed.
   *
   * @param trainJob the TrainJob as reconciled
   * @param status its status as just computed (the same or newer than the TrainJob's own)
   * @param runPolicy its runtime's defaults, or null
   * @return when to look again: empty when there is nothing to wait for (not finished, no TTL, or deleted)
   */
  Optional<Duration> check(TrainJob trainJob, TrainJobStatus status, RunPolicy runPolicy, Instant now) {
    Optional<Instant> expiry = expiry(trainJob, status, runPolicy);
    if (expiry.isEmpty()) {
      return Optional.empty();
    }
    if (now.isBefore(expiry.get())) {
      return Optional.of(Duration.between(now, expiry.get()));
    }
    return delete(trainJob, runPolicy, now);
  }

  private Optional<Duration> delete(TrainJob cached, RunPolicy runPolicy, Instant now) {
    String namespace = cached.getMetadata().getNamespace();
    String name = cached.getMetadata().getName();
    TrainJob fresh = client.resources(TrainJob.class).inNamespace(namespace).withName(name).get();
    if (fresh == null || !Objects.equals(fresh.getMetadata().getUid(), cached.getMetadata().getUid())
        || fresh.getMetadata().getDeletionTimestamp() != null) {
      return Optional.empty();
    }
    Optional<Instant> expiry = expiry(fresh, fresh.getStatus(), runPolicy);
    if (expiry.isEmpty()) {
      return Optional.empty();
    }
    if (now.isBefore(expiry.get())) {
      return Optional.of(Duration.between(now, expiry.get()));
    }
    try {
      // fabric8's DSL types drop lockResourceVersion after withPropagationPolicy; the operation keeps both
      @SuppressWarnings("unchecked")
      Resource<TrainJob> foreground = (Resource<TrainJob>) client.resources(TrainJob.class).inNamespace(namespace)
          .withName(name).withPropagationPolicy(DeletionPropagation.FOREGROUND);
      foreground.lockResourceVersion(fresh.getMetadata().getResourceVersion()).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return Optional.empty();
      }
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        LOG.debug("TrainJob {}/{} changed while being deleted after its TTL; looking again", namespace, name);
        return Optional.of(RETRY);
      }
      throw e;
    }
    LOG.info("Deleted TrainJob {}/{}: finished at {}, ttlSecondsAfterFinished {} passed", namespace, name,
        finishedAt(fresh.getStatus()).orElse(null), ttlSecondsAfterFinished(fresh, runPolicy).orElse(null));
    return Optional.empty();
  }

  /** When the TrainJob is to be deleted: its finish plus its TTL; empty when unfinished or without a TTL. */
  static Optional<Instant> expiry(TrainJob trainJob, TrainJobStatus status, RunPolicy runPolicy) {
    Optional<Integer> ttl = ttlSecondsAfterFinished(trainJob, runPolicy);
    if (ttl.isEmpty()) {
      return Optional.empty();
    }
    return finishedAt(status).map(finished -> finished.plusSeconds(ttl.get()));
  }

  /** KEP-2899's resolution: the TrainJob's own value, else the runtime's {@code runPolicy} default, else none. */
  static Optional<Integer> ttlSecondsAfterFinished(TrainJob trainJob, RunPolicy runPolicy) {
    Integer own = trainJob.getSpec() == null ? null : trainJob.getSpec().getTtlSecondsAfterFinished();
    if (own != null) {
      return Optional.of(own);
    }
    return Optional.ofNullable(runPolicy).map(RunPolicy::getTtlSecondsAfterFinished);
  }

  /** The {@code lastTransitionTime} of the true {@code Complete} or {@code Failed} condition. */
  static Optional<Instant> finishedAt(TrainJobStatus status) {
    List<Condition> conditions = status == null ? null : status.getConditions();
    return Stream.of(TrainerConstants.CONDITION_COMPLETE, TrainerConstants.CONDITION_FAILED)
        .flatMap(type -> Conditions.find(conditions, type).stream())
        .filter(c -> Conditions.TRUE.equals(c.getStatus()) && c.getLastTransitionTime() != null)
        .map(c -> OffsetDateTime.parse(c.getLastTransitionTime()).toInstant())
        .findFirst();
  }
}
