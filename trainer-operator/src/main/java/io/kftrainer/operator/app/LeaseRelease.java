package io.kftrainer.operator.app;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.ZonedDateTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives up the leader-election Lease when a leader stops, as controller-runtime does with
 * {@code LeaderElectionReleaseOnCancel} (which upstream's manager sets): the holder is cleared and the duration set to
 * 1 s, so that a standby takes it at once ({@link LeaseTakeover}) instead of waiting out the whole lease duration.
 * JOSDK 5.2 cancels its elector without releasing (fabric8's {@code releaseOnCancel} is not reachable from its
 * configuration), so the operator does it once its controllers have stopped. The Lease is written only when this
 * process still holds it, with its resourceVersion: a replica that took it meanwhile keeps it.
 *
 * <p>A full update, not fabric8's {@code LeaseLock} (which {@link LeaseTakeover} writes with): the lock's merge patch
 * leaves out a null {@code holderIdentity}, so it cannot clear the holder.
 */
final class LeaseRelease {

  private static final Logger LOG = LoggerFactory.getLogger(LeaseRelease.class);

  private LeaseRelease() {
  }

  /** Releases {@code namespace/name} if {@code identity} holds it; never throws (a failure is logged). */
  static void release(KubernetesClient client, String namespace, String name, String identity, Clock clock) {
    try {
      Lease lease = client.leases().inNamespace(namespace).withName(name).get();
      if (lease == null || lease.getSpec() == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
        return;
      }
      ZonedDateTime now = ZonedDateTime.now(clock);
      lease.getSpec().setHolderIdentity(null);
      lease.getSpec().setLeaseDurationSeconds(1);
      lease.getSpec().setRenewTime(now);
      lease.getSpec().setAcquireTime(now);
      client.leases().inNamespace(namespace).resource(lease).update();
      LOG.info("Released the Lease {}/{}", namespace, name);
    } catch (KubernetesClientException e) {
      LOG.warn("Cannot release the Lease {}/{} (another replica takes it once it expires): {}", namespace, name,
          e.getMessage());
    }
  }
}
