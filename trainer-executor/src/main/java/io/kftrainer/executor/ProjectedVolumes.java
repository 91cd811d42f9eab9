package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ProjectedVolumeSource;
import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjection;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's projected volumes: each source ({@code serviceAccountToken}, {@code configMap}, {@code secret},
 * {@code downwardAPI}) written as files of one directory before the containers start.
 *
 * <p>A {@code serviceAccountToken} is requested from the API server as the kubelet does (TokenRequest for the pod's
 * ServiceAccount, {@code default} unless it names one, bound to the pod, with the projection's audience and
 * expiry, 3600 s by default) and renewed in the background when 80% of its lifetime has passed (the kubelet's rule;
 * at most every 24 h), replacing the file atomically so that a reader never sees half a token. Renewals stop when the
 * pod's processes stop ({@link #forget}). A renewal that fails is retried after a tenth of the lifetime. Tokens are
 * never logged.
 */
final class ProjectedVolumes implements AutoCloseable {

  static final long DEFAULT_EXPIRATION_SECONDS = 3600;
  private static final Duration MAX_REFRESH_AFTER = Duration.ofHours(24);
  private static final Logger LOG = LoggerFactory.getLogger(ProjectedVolumes.class);

  private final KubernetesClient client;
  private final Clock clock;
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "kubelet-tokens");
    thread.setDaemon(true);
    return thread;
  });
  private final Map<String, List<ScheduledFuture<?>>> renewals = new ConcurrentHashMap<>();

  ProjectedVolumes(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /**
   * Writes the sources of {@code source} into {@code dir} and schedules their tokens' renewals under {@code podId}.
   *
   * @throws ContainerEnv.ConfigError what the kubelet reports as a mount failure: a missing ConfigMap or Secret that
   *     is not optional, a token the API server refuses
   */
  void write(String podId, Pod pod, String podIp, ProjectedVolumeSource source, Path dir) throws IOException {
    String namespace = pod.getMetadata().getNamespace();
    Integer mode = source.getDefaultMode();
    for (VolumeProjection projection : Optional.ofNullable(source.getSources()).orElse(List.of())) {
      if (projection.getServiceAccountToken() != null) {
        ServiceAccountTokenProjection token = projection.getServiceAccountToken();
        Path file = PodPaths.within(dir, token.getPath(), "serviceAccountToken.path");
        Duration lifetime = writeToken(pod, token, file);
        schedule(podId, pod, token, file, lifetime);
      } else if (projection.getConfigMap() != null) {
        PodVolumes.write(dir, PodVolumes.configMapData(client, namespace, projection.getConfigMap().getName(),
            projection.getConfigMap().getOptional()), projection.getConfigMap().getItems(), mode);
      } else if (projection.getSecret() != null) {
        PodVolumes.write(dir, PodVolumes.secretData(client, namespace, projection.getSecret().getName(),
            projection.getSecret().getOptional()), projection.getSecret().getItems(), mode);
      } else if (projection.getDownwardAPI() != null) {
        for (DownwardAPIVolumeFile item : Optional.ofNullable(projection.getDownwardAPI().getItems())
            .orElse(List.<DownwardAPIVolumeFile>of())) {
          if (item.getFieldRef() == null) {
            throw new ContainerEnv.ConfigError("downwardAPI item " + item.getPath() + ": only fieldRef is supported");
          }
          PodPaths.write(PodPaths.within(dir, item.getPath(), "downwardAPI.items[].path"),
              ContainerEnv.field(pod, podIp, item.getFieldRef().getFieldPath())
                  .getBytes(java.nio.charset.StandardCharsets.UTF_8),
              item.getMode() != null ? item.getMode() : mode != null ? mode : PodPaths.DEFAULT_FILE_MODE);
        }
      }
    }
  }

  /** Stops renewing the tokens of the pod {@code podId}. */
  void forget(String podId) {
    List<ScheduledFuture<?>> pending = renewals.remove(podId);
    if (pending != null) {
      pending.forEach(future -> future.cancel(false));
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }

  /** Requests a token and writes it; returns its lifetime. */
  private Duration writeToken(Pod pod, ServiceAccountTokenProjection projection, Path file) throws IOException {
    String account = Optional.ofNullable(pod.getSpec().getServiceAccountName()).filter(s -> !s.isEmpty())
        .orElse("default");
    long seconds = Optional.ofNullable(projection.getExpirationSeconds()).orElse(DEFAULT_EXPIRATION_SECONDS);
    TokenRequestBuilder request = new TokenRequestBuilder().withNewSpec()
        .withExpirationSeconds(seconds)
        .withNewBoundObjectRef().withApiVersion("v1").withKind("Pod").withName(pod.getMetadata().getName())
        .withUid(pod.getMetadata().getUid()).endBoundObjectRef()
        .endSpec();
    if (projection.getAudience() != null && !projection.getAudience().isEmpty()) {
      request.editSpec().withAudiences(projection.getAudience()).endSpec();
    }
    TokenRequest answer;
    try {
      answer = client.serviceAccounts().inNamespace(pod.getMetadata().getNamespace()).withName(account)
          .tokenRequest(request.build());
    } catch (KubernetesClientException e) {
      throw new ContainerEnv.ConfigError("cannot get a token of serviceaccount \"" + account + "\": "
          + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
              : "HTTP " + e.getCode()));
    }
    Path partial = file.resolveSibling("." + file.getFileName() + ".partial");
    // the token is a credential: readable by the user only, whatever defaultMode says (the pod runs as this user)
    PodPaths.write(partial, answer.getStatus().getToken().getBytes(java.nio.charset.StandardCharsets.UTF_8), 0600);
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Instant expires = Instant.parse(answer.getStatus().getExpirationTimestamp());
    return Duration.between(clock.instant(), expires);
  }

  private void schedule(String podId, Pod pod, ServiceAccountTokenProjection projection, Path file,
      Duration lifetime) {
    if (scheduler.isShutdown()) {
      return;
    }
    Duration after = lifetime.multipliedBy(8).dividedBy(10);
    if (after.compareTo(MAX_REFRESH_AFTER) > 0) {
      after = MAX_REFRESH_AFTER;
    }
    List<ScheduledFuture<?>> pending = renewals.computeIfAbsent(podId, id -> new ArrayList<>());
    synchronized (pending) {
      pending.removeIf(ScheduledFuture::isDone);
      pending.add(scheduler.schedule(() -> renew(podId, pod, projection, file, lifetime),
          Math.max(1, after.toMillis()), TimeUnit.MILLISECONDS));
    }
  }

  private void renew(String podId, Pod pod, ServiceAccountTokenProjection projection, Path file,
      Duration previous) {
    if (!renewals.containsKey(podId)) {
      return;
    }
    try {
      schedule(podId, pod, projection, file, writeToken(pod, projection, file));
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot renew the token {} of pod {}: {}", file.getFileName(), podId, e.getMessage());
      Duration retry = previous.dividedBy(10);
      List<ScheduledFuture<?>> pending = renewals.get(podId);
      if (pending != null && !scheduler.isShutdown()) {
        synchronized (pending) {
          pending.add(scheduler.schedule(() -> renew(podId, pod, projection, file, previous),
              Math.max(1000, retry.toMillis()), TimeUnit.MILLISECONDS));
        }
      }
    }
  }
}
