package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Job controller against informer caches that lag behind its own writes, as they do between a write and its
 * watch event: the caches here are plain maps the test fills, so each lag is reproduced, not waited for.
 */
class JobControllerTest {

  private EmbeddedApiServer server;
  private KubernetesClient client;
  private EventRecorder events;
  private JobController controller;
  private final MapStore<Job> jobs = new MapStore<>();
  private final MapStore<Pod> pods = new MapStore<>();

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    client = server.newClient();
    events = new EventRecorder(client);
  }

  @AfterEach
  void stop() {
    if (controller != null) {
      controller.close();
    }
    events.close();
    server.close();
  }

  @Test
  void aJobItFailedIsNotGivenNewPodsWhileItsCacheStillShowsItRunning() {
    Job job = client.batch().v1().jobs().inNamespace("default").resource(new JobBuilder().withNewMetadata()
        .withName("train").endMetadata().withNewSpec().withCompletionMode("Indexed").withCompletions(2)
        .withParallelism(2).withBackoffLimit(0).withNewTemplate().withNewSpec().withRestartPolicy("OnFailure")
        .addNewContainer().withName("node").withImage("busybox").endContainer().endSpec().endTemplate().endSpec()
        .build()).create();
    jobs.put(job);
    controller = new JobController(client, jobs, pods, events);
    WorkQueue.Key key = new WorkQueue.Key(JobController.CONTROLLER, "default", "train");

    controller.reconcile(key);
    List<Pod> created = client.pods().inNamespace("default").list().getItems();
    assertThat(created).hasSize(2);
    jobs.put(client.batch().v1().jobs().inNamespace("default").withName("train").get()); // as the informer would
    // index 0 runs; index 1's container has restarted once in its pod: past a backoffLimit of 0
    created.forEach(pod -> pods.put(running(pod, pod.getMetadata().getName().startsWith("train-1-") ? 1 : 0)));

    controller.reconcile(key);
    assertThat(client.batch().v1().jobs().inNamespace("default").withName("train").get().getStatus().getConditions())
        .anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Failed=True"));
    assertThat(client.pods().inNamespace("default").list().getItems()).isEmpty();

    // the pods' deletions reach the cache before the Job's Failed status does
    pods.clear();
    controller.reconcile(key);

    assertThat(client.pods().inNamespace("default").list().getItems()).as("pods of a failed Job").isEmpty();
    assertThat(client.batch().v1().jobs().inNamespace("default").withName("train").get().getStatus().getConditions())
        .as("the Failed condition stays").anySatisfy(c -> assertThat(c.getType()).isEqualTo("Failed"));
  }

  /**
   * The garbage collector deletes a Job, then its pods; a pod's deletion can reach the cache first. No replacement
   * then: it would start the training again for a moment (found as a second daemon of a deleted JobSet's pod). A pod
   * deleted while its Job lives is replaced, as Kubernetes does.
   */
  @Test
  void aPodGoneWithItsDeletedJobIsNotReplacedWhileTheCacheStillShowsTheJob() {
    Job job = client.batch().v1().jobs().inNamespace("default").resource(new JobBuilder().withNewMetadata()
        .withName("train").endMetadata().withNewSpec().withBackoffLimit(0).withNewTemplate().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("node").withImage("busybox").endContainer().endSpec()
        .endTemplate().endSpec().build()).create();
    jobs.put(job);
    controller = new JobController(client, jobs, pods, events);
    WorkQueue.Key key = new WorkQueue.Key(JobController.CONTROLLER, "default", "train");
    controller.reconcile(key);
    jobs.put(client.batch().v1().jobs().inNamespace("default").withName("train").get()); // as the informer would
    Pod first = client.pods().inNamespace("default").list().getItems().get(0);
    pods.put(running(first, 0));
    controller.reconcile(key);

    // deleted while its Job lives: replaced
    client.pods().inNamespace("default").withName(first.getMetadata().getName()).delete();
    pods.clear();
    controller.reconcile(key);
    List<Pod> replaced = client.pods().inNamespace("default").list().getItems();
    assertThat(replaced).hasSize(1).noneMatch(pod -> pod.getMetadata().getName()
        .equals(first.getMetadata().getName()));
    pods.put(running(replaced.get(0), 0));
    controller.reconcile(key);

    // the Job deleted, then its pod; the cache has the Job still
    client.batch().v1().jobs().inNamespace("default").withName("train").withPropagationPolicy(
        DeletionPropagation.ORPHAN).delete();
    client.pods().inNamespace("default").delete();
    pods.clear();
    long podCreates = podCreates();
    controller.reconcile(key);

    // (the API server's collector would delete such a pod at once, its owner gone: its creation is what counts)
    assertThat(podCreates()).as("pods created for a deleted Job").isEqualTo(podCreates);
  }

  private long podCreates() {
    return server.requests().stream().filter(r -> r.method().equals("POST")
        && r.path().equals("/api/v1/namespaces/default/pods")).count();
  }

  private static Pod running(Pod pod, int restarts) {
    pod.setStatus(new PodStatusBuilder().withPhase("Running").withContainerStatuses(new ContainerStatusBuilder()
        .withName("node").withRestartCount(restarts).withNewLastState().withNewTerminated().withExitCode(1)
        .endTerminated().endLastState().build()).build());
    return pod;
  }

  /** An informer's store the test fills by hand. */
  private static final class MapStore<T extends HasMetadata> implements Store<T> {

    private final Map<String, T> items = new LinkedHashMap<>();

    void put(T item) {
      items.put(getKey(item), item);
    }

    void clear() {
      items.clear();
    }

    @Override
    public List<T> list() {
      return new ArrayList<>(items.values());
    }

    @Override
    public List<String> listKeys() {
      return new ArrayList<>(items.keySet());
    }

    @Override
    public T get(T item) {
      return items.get(getKey(item));
    }

    @Override
    public T getByKey(String key) {
      return items.get(key);
    }

    @Override
    public String getKey(T item) {
      return item.getMetadata().getNamespace() + "/" + item.getMetadata().getName();
    }
  }
}
