package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * core/v1 Events about pods, Jobs and JobSets, from the component a cluster would name.
 *
 * <p>Events are posted in order on a thread of their own, as a kubelet's and a controller's event broadcaster posts
 * them: the controllers' thread goes on at once, so that a pod's process does not wait for the "Scheduled" and
 * "Pulled" Events, nor a Job's completion for its "Completed" Event. At most {@value #QUEUE} Events wait; beyond
 * that they are dropped (as client-go's broadcaster drops them), and so are those still waiting at
 * {@link #close()}.
 */
final class EventRecorder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final int MAX_MESSAGE = 1024;
  static final int QUEUE = 1000;

  private final KubernetesClient client;
  private final ThreadPoolExecutor poster = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS,
      new ArrayBlockingQueue<>(QUEUE), task -> {
        Thread thread = new Thread(task, "local-executor-events");
        thread.setDaemon(true);
        return thread;
      });

  EventRecorder(KubernetesClient client) {
    this.client = client;
    poster.allowCoreThreadTimeOut(true);
  }

  void pod(HasMetadata pod, String type, String reason, String message) {
    record(pod, "kubelet", type, reason, message);
  }

  void record(HasMetadata object, String component, String type, String reason, String message) {
    String now = Instant.now().toString();
    String text = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message;
    Event event = new EventBuilder()
        .withNewMetadata().withName(object.getMetadata().getName() + "." + UUID.randomUUID().toString()
            .replace("-", "").substring(0, 16)).withNamespace(object.getMetadata().getNamespace()).endMetadata()
        .withNewInvolvedObject().withApiVersion(object.getApiVersion()).withKind(object.getKind())
        .withName(object.getMetadata().getName()).withNamespace(object.getMetadata().getNamespace())
        .withUid(object.getMetadata().getUid()).endInvolvedObject()
        .withType(type).withReason(reason).withMessage(text).withCount(1).withFirstTimestamp(now)
        .withLastTimestamp(now).withNewSource().withComponent(component).withHost(Kubelet.NODE_NAME).endSource()
        .withReportingComponent(component).withReportingInstance(Kubelet.NODE_NAME)
        .build();
    try {
      poster.execute(() -> post(event));
    } catch (RejectedExecutionException e) {
      LOG.debug("event not recorded (queue full or stopped): {} {}", reason, text);
    }
  }

  private void post(Event event) {
    try {
      client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.debug("event not recorded: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    poster.shutdownNow();
  }
}
