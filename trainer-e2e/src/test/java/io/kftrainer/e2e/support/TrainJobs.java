package io.kftrainer.e2e.support;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a user of one namespace does with TrainJobs through the API, and waits for: create (runtimes too), read,
 * wait for a condition, list the Events and the children.
 */
public final class TrainJobs {

  /** How long the operator may take to react to a change (a reconcile on a loaded 2-core machine). */
  public static final Duration REACTION = Duration.ofSeconds(30);
  /** Every object the built-in plugins create carries it. */
  public static final String TRAINJOB_NAME_LABEL = "trainer.kubeflow.org/trainjob-name";
  /**
   * The webhook's answer for a TrainJob whose runtime the operator's cache does not hold yet. Right after a runtime
   * is created the cache may lag behind by a moment, on a cluster as here; {@link #create} retries on it.
   */
  private static final String RUNTIME_NOT_YET_SEEN = "must be created before the TrainJob is created";

  private final KubernetesClient client;
  private final String namespace;

  public TrainJobs(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  public String namespace() {
    return namespace;
  }

  /**
   * Creates the objects in this namespace, in order (runtimes before the TrainJobs that use them). A TrainJob
   * refused only because its runtime, created just before, is not in the operator's cache yet is sent again.
   */
  public void create(List<? extends HasMetadata> objects) {
    for (HasMetadata object : objects) {
      if ("TrainJob".equals(object.getKind())) {
        await("admission of TrainJob " + object.getMetadata().getName()).atMost(REACTION)
            .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
            .ignoreExceptionsMatching(e -> e instanceof KubernetesClientException
                && String.valueOf(e.getMessage()).contains(RUNTIME_NOT_YET_SEEN))
            .until(() -> client.resource(object).inNamespace(namespace).create() != null);
      } else {
        client.resource(object).inNamespace(namespace).create();
      }
    }
  }

  public void create(HasMetadata object) {
    create(List.of(object));
  }

  public TrainJob get(String name) {
    return client.resources(TrainJob.class).inNamespace(namespace).withName(name).get();
  }

  public JobSet jobSet(String name) {
    return client.resources(JobSet.class).inNamespace(namespace).withName(name).get();
  }

  /** The TrainJob's condition of this type, if it has one. */
  public static Optional<Condition> condition(TrainJob trainJob, String type) {
    if (trainJob == null || trainJob.getStatus() == null || trainJob.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return trainJob.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** Waits until the TrainJob has the condition {@code type} with {@code status}; returns the TrainJob then. */
  public TrainJob awaitCondition(String name, String type, String status) {
    return await("TrainJob " + namespace + "/" + name + " " + type + "=" + status).atMost(REACTION)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> get(name), trainJob -> condition(trainJob, type)
            .filter(c -> status.equals(c.getStatus())).isPresent());
  }

  /**
   * Waits until the operator has applied the TrainJob's JobSet (upstream's conditions say nothing about it);
   * returns the TrainJob then.
   */
  public TrainJob awaitJobSet(String name) {
    awaitChild("JobSet " + name, () -> jobSet(name));
    return get(name);
  }

  /** Waits until {@code read} finds the TrainJob's child; returns it. */
  public <T> T awaitChild(String description, java.util.function.Supplier<T> read) {
    return await(description + " in " + namespace).atMost(REACTION).pollInterval(Duration.ofMillis(100))
        .until(read::get, java.util.Objects::nonNull);
  }

  /**
   * The Events about the TrainJob, oldest first: in the order the API server stored them (resourceVersion), since
   * Events of one reconcile share their time stamp.
   */
  public List<Event> events(String name) {
    return client.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> e.getInvolvedObject() != null && "TrainJob".equals(e.getInvolvedObject().getKind())
            && name.equals(e.getInvolvedObject().getName()))
        .sorted(Comparator.comparing((Event e) -> Long.parseLong(e.getMetadata().getResourceVersion())))
        .toList();
  }

  /** The objects of this kind labelled with the TrainJob's name; none when the API does not serve the kind. */
  public List<GenericKubernetesResource> children(String apiVersion, String kind, String trainJob) {
    if (!client.supports(apiVersion, kind)) {
      return List.of();
    }
    return client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace)
        .withLabel(TRAINJOB_NAME_LABEL, trainJob).list().getItems();
  }
}
