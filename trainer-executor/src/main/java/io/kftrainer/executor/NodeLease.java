package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's heartbeat, as a kubelet keeps it: the Lease {@code kube-node-lease/local} (owned by the Node, held by
 * it for {@value #DURATION_SECONDS} s), renewed every {@value #RENEW_SECONDS} s, which {@code kubectl describe node}
 * shows as the node's {@code Lease}. A failed renewal is logged and tried again at the next interval.
 */
final class NodeLease implements AutoCloseable {

  static final String NAMESPACE = "kube-node-lease";
  static final int DURATION_SECONDS = 40;
  static final int RENEW_SECONDS = 10;
  private static final Logger LOG = LoggerFactory.getLogger(NodeLease.class);

  private final KubernetesClient client;
  private final Node node;
  private final Clock clock;
  /** The Lease as the last renewal wrote it; touched by the timer's thread (and the first renewal) only. */
  private Lease last;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "local-executor-node-lease");
    thread.setDaemon(true);
    return thread;
  });

  private NodeLease(KubernetesClient client, Node node, Clock clock) {
    this.client = client;
    this.node = node;
    this.clock = clock;
  }

  /** Takes the Lease now and renews it until {@link #close}. */
  static NodeLease start(KubernetesClient client, Node node) {
    NodeLease lease = new NodeLease(client, node, Clock.systemUTC());
    try {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
          .build()).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
    lease.renew();
    lease.timer.scheduleWithFixedDelay(lease::renewOrLog, RENEW_SECONDS, RENEW_SECONDS, TimeUnit.SECONDS);
    return lease;
  }

  synchronized void renew() {
    ZonedDateTime now = ZonedDateTime.now(clock);
    Lease lease = new LeaseBuilder().withNewMetadata().withName(node.getMetadata().getName())
        .withNamespace(NAMESPACE).addNewOwnerReference().withApiVersion("v1").withKind("Node")
        .withName(node.getMetadata().getName()).withUid(node.getMetadata().getUid()).endOwnerReference()
        .endMetadata().withNewSpec().withHolderIdentity(node.getMetadata().getName())
        .withLeaseDurationSeconds(DURATION_SECONDS).withRenewTime(now).endSpec().build();
    if (last != null) {
      // one write per renewal: the Lease as this renewal left it, unless someone else changed it meanwhile
      last.setSpec(lease.getSpec());
      try {
        last = client.leases().inNamespace(NAMESPACE).resource(last).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 && e.getCode() != 404) {
          throw e;
        }
      }
    }
    Lease current = client.leases().inNamespace(NAMESPACE).withName(node.getMetadata().getName()).get();
    if (current == null) {
      last = client.leases().inNamespace(NAMESPACE).resource(lease).create();
    } else {
      current.setSpec(lease.getSpec());
      current.getMetadata().setOwnerReferences(lease.getMetadata().getOwnerReferences());
      last = client.leases().inNamespace(NAMESPACE).resource(current).update();
    }
  }

  private void renewOrLog() {
    try {
      renew();
    } catch (RuntimeException e) {
      LOG.warn("cannot renew the node's Lease {}/{}: {}", NAMESPACE, node.getMetadata().getName(), e.toString());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
