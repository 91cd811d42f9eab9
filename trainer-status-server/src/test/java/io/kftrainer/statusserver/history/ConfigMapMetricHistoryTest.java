package io.kftrainer.statusserver.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.apiserver.ApiRequest;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cluster's metric history against the embedded API server: batches, ownership, the size bound. */
class ConfigMapMetricHistoryTest {

  private EmbeddedApiServer api;
  private KubernetesClient client;
  private TrainJob trainJob;

  @BeforeEach
  void start() {
    api = EmbeddedApiServer.start();
    client = api.newClient();
    api.installCrds(getClass().getClassLoader()
        .getResourceAsStream("META-INF/fabric8/trainjobs.trainer.kubeflow.org-v1.yml"));
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build())
        .create();
    trainJob = client.resources(TrainJob.class).inNamespace("team").resource(trainJob("mnist")).create();
  }

  @AfterEach
  void stop() {
    client.close();
    api.close();
  }

  private static TrainJob trainJob(String name) {
    TrainJob trainJob = new TrainJob();
    trainJob.getMetadata().setName(name);
    trainJob.setSpec(new TrainJobSpec().withRuntimeRef(new RuntimeRef().withName("torch-distributed")));
    return trainJob;
  }

  private ConfigMapMetricHistory history(int capacity) {
    return new ConfigMapMetricHistory(client, (namespace, name) -> Optional.ofNullable(
            client.resources(TrainJob.class).inNamespace(namespace).withName(name).get())
        .map(found -> found.getMetadata().getUid()), Duration.ofHours(1), capacity);
  }

  private static List<Metric> loss(double value) {
    return List.of(new Metric().withName("loss").withValue(Double.toString(value)),
        new Metric().withName("phase").withValue("warm-up"));
  }

  @Test
  void aBatchOfReportsIsOneWriteOfAConfigMapTheTrainJobOwns() {
    ConfigMapMetricHistory history = history(MetricHistory.POINTS_PER_SERIES);
    String uid = trainJob.getMetadata().getUid();
    api.resetRequests();
    for (int i = 0; i < 50; i++) {
      history.record("team", "mnist", uid, loss(1.0 / (i + 1)), 1_000L * i);
    }
    assertThat(api.writes()).isEmpty();
    history.flush();
    history.flush(); // nothing new: nothing written
    assertThat(api.writes()).extracting(ApiRequest::method).containsExactly("POST");

    ConfigMap configMap = client.configMaps().inNamespace("team").withName("mnist-metrics").get();
    assertThat(configMap.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(uid));
    assertThat(configMap.getMetadata().getLabels()).isNullOrEmpty();
    Map<String, List<MetricPoint>> series = history.series("team", "mnist", uid);
    assertThat(series).containsOnlyKeys("loss");
    assertThat(series.get("loss")).hasSize(50);
    assertThat(series.get("loss").get(49)).isEqualTo(new MetricPoint(49, 49_000L, 1.0 / 50));
  }

  @Test
  void anotherReplicasBatchIsMergedAndAReplicaRestartKeepsWhatWasWritten() {
    String uid = trainJob.getMetadata().getUid();
    ConfigMapMetricHistory first = history(MetricHistory.POINTS_PER_SERIES);
    ConfigMapMetricHistory second = history(MetricHistory.POINTS_PER_SERIES);
    first.record("team", "mnist", uid, loss(3), 1_000);
    second.record("team", "mnist", uid, loss(2), 2_000);
    first.flush();
    second.flush();
    first.record("team", "mnist", "", loss(1), 3_000);
    assertThat(first.series("team", "mnist", uid).get("loss")).extracting(MetricPoint::value)
        .containsExactly(3.0, 2.0, 1.0);
    first.close();

    ConfigMapMetricHistory restarted = history(MetricHistory.POINTS_PER_SERIES);
    assertThat(restarted.series("team", "mnist", uid).get("loss")).extracting(MetricPoint::value)
        .containsExactly(3.0, 2.0, 1.0);
  }

  @Test
  void reportsOfATrainJobWhoseUidIsNotKnownYetWaitForTheNextBatch() {
    java.util.concurrent.atomic.AtomicBoolean cached = new java.util.concurrent.atomic.AtomicBoolean();
    ConfigMapMetricHistory history = new ConfigMapMetricHistory(client, (namespace, name) -> cached.get()
        ? Optional.of(trainJob.getMetadata().getUid()) : Optional.empty(), Duration.ofHours(1),
        MetricHistory.POINTS_PER_SERIES);
    history.record("team", "mnist", "", loss(3), 1_000);
    history.flush();
    assertThat(client.configMaps().inNamespace("team").withName("mnist-metrics").get()).isNull();

    cached.set(true);
    history.record("team", "mnist", "", loss(2), 2_000);
    history.flush();
    // written: another replica reads both
    assertThat(history(MetricHistory.POINTS_PER_SERIES).series("team", "mnist", trainJob.getMetadata().getUid())
        .get("loss")).extracting(MetricPoint::value).containsExactly(3.0, 2.0);
  }

  @Test
  void aTrainJobCreatedAgainStartsAfresh() {
    ConfigMapMetricHistory history = history(MetricHistory.POINTS_PER_SERIES);
    history.record("team", "mnist", trainJob.getMetadata().getUid(), loss(3), 1_000);
    history.flush();
    String otherUid = "another-" + trainJob.getMetadata().getUid();
    assertThat(history.series("team", "mnist", otherUid)).isEmpty();
    history.record("team", "mnist", otherUid, loss(5), 2_000);
    history.flush();
    assertThat(history.series("team", "mnist", otherUid).get("loss")).extracting(MetricPoint::value)
        .containsExactly(5.0);
  }

  @Test
  void manyMetricsKeepFewerPointsToStayWithinTheBound() {
    ConfigMapMetricHistory history = history(MetricHistory.POINTS_PER_SERIES);
    String uid = trainJob.getMetadata().getUid();
    for (int i = 0; i < 1_000; i++) {
      List<Metric> metrics = new java.util.ArrayList<>();
      for (int m = 0; m < 40; m++) {
        metrics.add(new Metric().withName("metric_" + m).withValue(Double.toString(Math.random())));
      }
      history.record("team", "mnist", uid, metrics, 1_700_000_000_000L + i);
    }
    history.flush();
    String data = client.configMaps().inNamespace("team").withName("mnist-metrics").get().getData()
        .get(ConfigMapMetricHistory.KEY);
    assertThat(data.length()).isLessThanOrEqualTo(ConfigMapMetricHistory.MAX_BYTES);
    Map<String, List<MetricPoint>> series = history.series("team", "mnist", uid);
    assertThat(series).hasSize(40);
    assertThat(series.get("metric_0")).hasSizeLessThan(1_000).hasSizeGreaterThan(100);
    assertThat(series.get("metric_0").get(series.get("metric_0").size() - 1).report()).isEqualTo(999);
  }
}
