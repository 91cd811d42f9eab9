package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** core/v1 Events about pods, Jobs and JobSets, from the component a cluster would name. */
final class EventRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final int MAX_MESSAGE = 1024;

  private final KubernetesClient client;

  EventRecorder(KubernetesClient client) {
    this.client = client;
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
      client.v1().events().inNamespace(object.getMetadata().getNamespace()).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.debug("event not recorded: {}", e.getMessage());
    }
  }
}
