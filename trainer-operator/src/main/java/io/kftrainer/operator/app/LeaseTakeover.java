package io.kftrainer.operator.app;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the leader-election Lease the moment its holder releases it ({@link LeaseRelease}, or controller-runtime's
 * {@code LeaderElectionReleaseOnCancel} in a mixed roll-out). JOSDK's elector (fabric8's) polls every retryPeriod
 * plus up to 1.2 times as much jitter, 2 to 4.4 s with upstream's 2 s, so a standby left to it finds a released
 * Lease only at its next poll. This watches the one Lease; once its holder is cleared it acquires it through
 * fabric8's {@link LeaseLock} (a write conditional on the resourceVersion it read: of several standbys, and of this
 * one and its own elector, one wins) and calls {@code acquired}, which starts the controllers' event processing.
 * The elector, at its next poll, finds this identity holding the Lease, calls its start-leading callback (the same
 * start again, which does nothing twice) and renews it from then on. A Lease that expires instead (a killed leader)
 * is left to the elector.
 */
final class LeaseTakeover implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LeaseTakeover.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final String identity;
  private final Duration leaseDuration;
  private final Clock clock;
  private final BooleanSupplier wanted;
  private final Runnable acquired;
  private volatile SharedIndexInformer<Lease> informer;

  /**
   * @param wanted whether this process still wants the Lease (not leading, not stopping)
   * @param acquired called once this process holds the Lease it took
   */
  LeaseTakeover(KubernetesClient client, String namespace, String name, String identity, Duration leaseDuration,
      Clock clock, BooleanSupplier wanted, Runnable acquired) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.identity = identity;
    this.leaseDuration = leaseDuration;
    this.clock = clock;
    this.wanted = wanted;
    this.acquired = acquired;
  }

  /** Starts watching the Lease (an informer on that one object). */
  void start() {
    informer = client.leases().inNamespace(namespace).withName(name).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Lease lease) {
        takeIfReleased(lease);
      }

      @Override
      public void onUpdate(Lease old, Lease lease) {
        takeIfReleased(lease);
      }

      @Override
      public void onDelete(Lease lease, boolean deletedFinalStateUnknown) {
      }
    });
  }

  private void takeIfReleased(Lease lease) {
    if (!released(lease) || !wanted.getAsBoolean()) {
      return;
    }
    LeaseLock lock = new LeaseLock(namespace, name, identity);
    try {
      LeaderElectionRecord current = lock.get(client);
      if (current == null || current.getHolderIdentity() != null && !current.getHolderIdentity().isEmpty()) {
        return; // taken meanwhile, or deleted: the elector's next poll decides
      }
      ZonedDateTime now = ZonedDateTime.now(clock);
      lock.update(client, new LeaderElectionRecord(identity, leaseDuration, now, now,
          current.getLeaderTransitions() + 1));
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        LOG.warn("Cannot take the released Lease {}/{} (the next poll will): {}", namespace, name, e.getMessage());
      }
      return;
    }
    LOG.info("Took the released Lease {}/{}", namespace, name);
    acquired.run();
  }

  private static boolean released(Lease lease) {
    return lease.getSpec() != null
        && (lease.getSpec().getHolderIdentity() == null || lease.getSpec().getHolderIdentity().isEmpty());
  }

  /** Stops watching; safe from the informer's own handler (the informer stops on another thread). */
  @Override
  public void close() {
    SharedIndexInformer<Lease> running = informer;
    informer = null;
    if (running != null) {
      CompletableFuture.runAsync(running::stop);
    }
  }
}
