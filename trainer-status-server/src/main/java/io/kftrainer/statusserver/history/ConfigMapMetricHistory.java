package io.kftrainer.statusserver.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metric history on a cluster: in a ConfigMap {@code <trainjob>-metrics} of the TrainJob's namespace, owned by
 * the TrainJob (the garbage collector deletes it with the TrainJob), under the key {@value #KEY}.
 *
 * <p>Reports are buffered in memory and written in batches: every {@link #flushInterval} at most one read and one
 * write per TrainJob that reported since the last batch, none for the others. The ConfigMap's data stays under
 * {@value #MAX_BYTES} bytes: a TrainJob with many metrics keeps fewer points of each (every series thinned once
 * more until it fits). Any replica of the operator may receive a report: each merges its batch into what the
 * ConfigMap holds, with the ConfigMap's resourceVersion (a conflict is read and merged again). What a replica had
 * not written yet when it stopped is lost: at most one interval of reports.
 *
 * <p>The ConfigMap carries no {@code trainer.kubeflow.org/trainjob-name} label: the controller does not cache it,
 * and its writes start no reconcile.
 */
public final class ConfigMapMetricHistory implements MetricHistory, AutoCloseable {

  public static final String NAME_SUFFIX = "-metrics";
  public static final String KEY = "series.json";
  /** A ConfigMap holds at most 1 MiB; the history keeps to half of it. */
  public static final int MAX_BYTES = 512 * 1024;
  /**
   * Values buffered per TrainJob while the API server cannot be written (a few MB at most); the oldest are dropped
   * beyond.
   */
  static final int MAX_PENDING = 100_000;
  private static final int CONFLICT_RETRIES = 3;
  private static final Logger LOG = LoggerFactory.getLogger(ConfigMapMetricHistory.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final BiFunction<String, String, Optional<String>> uids;
  private final Duration flushInterval;
  private final int capacity;
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private ScheduledExecutorService flusher;

  /**
   * @param client the operator's client, which writes the ConfigMaps
   * @param uids a TrainJob's UID by namespace and name, from the operator's cache: for the reports whose UID the
   *     status server did not know
   */
  public ConfigMapMetricHistory(KubernetesClient client, BiFunction<String, String, Optional<String>> uids,
      Duration flushInterval, int capacity) {
    this.client = Objects.requireNonNull(client, "client");
    this.uids = Objects.requireNonNull(uids, "uids");
    this.flushInterval = Objects.requireNonNull(flushInterval, "flushInterval");
    this.capacity = capacity;
  }

  public static String configMapName(String trainJob) {
    return trainJob + NAME_SUFFIX;
  }

  /** Writes a batch every {@code flushInterval} on a thread of its own. */
  public synchronized void start() {
    if (flusher != null) {
      return;
    }
    flusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "metric-history-flush");
      thread.setDaemon(true);
      return thread;
    });
    long millis = flushInterval.toMillis();
    flusher.scheduleWithFixedDelay(this::flush, millis, millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void record(String namespace, String name, String uid, List<Metric> metrics, long timeMillis) {
    List<Report> reports = new ArrayList<>();
    for (Metric metric : metrics == null ? List.<Metric>of() : metrics) {
      Double value = MetricHistory.valueOf(metric);
      if (value != null) {
        reports.add(new Report(metric.getName(), timeMillis, value));
      }
    }
    if (reports.isEmpty()) {
      return;
    }
    synchronized (pending) {
      Pending batch = pending.computeIfAbsent(namespace + "/" + name, key -> new Pending(namespace, name));
      batch.add(uid, reports);
    }
  }

  /** What the ConfigMap holds, with the reports this replica has not written yet. */
  @Override
  public Map<String, List<MetricPoint>> series(String namespace, String name, String uid) {
    ConfigMap configMap = client.configMaps().inNamespace(namespace).withName(configMapName(name)).get();
    Map<String, MetricSeries> series = configMap == null || !ownedBy(configMap, uid) ? new LinkedHashMap<>()
        : decode(configMap);
    synchronized (pending) {
      Pending batch = pending.get(namespace + "/" + name);
      if (batch != null && (uid.isEmpty() || batch.uid.isEmpty() || batch.uid.equals(uid))) {
        batch.reports.forEach(report -> report.addTo(series, capacity));
      }
    }
    Map<String, List<MetricPoint>> points = new LinkedHashMap<>();
    series.forEach((metric, values) -> points.put(metric, values.points()));
    return points;
  }

  /** Writes what was reported since the last batch; what fails is kept for the next one. */
  public void flush() {
    List<Pending> batches;
    synchronized (pending) {
      batches = new ArrayList<>(pending.values());
      pending.clear();
    }
    for (Pending batch : batches) {
      try {
        if (!write(batch)) {
          requeue(batch);
        }
      } catch (RuntimeException e) {
        // any failure (a periodic task that throws is never run again): kept for the next batch
        LOG.warn("Cannot write the metric history of TrainJob {}/{} (kept for the next batch): {}", batch.namespace,
            batch.name, e.toString());
        requeue(batch);
      }
    }
  }

  /** @return false when the TrainJob's UID is not known yet */
  private boolean write(Pending batch) {
    String uid = batch.uid.isEmpty() ? uids.apply(batch.namespace, batch.name).orElse("") : batch.uid;
    if (uid == null || uid.isEmpty()) {
      return false;
    }
    String name = configMapName(batch.name);
    for (int attempt = 1; ; attempt++) {
      ConfigMap current = client.configMaps().inNamespace(batch.namespace).withName(name).get();
      Map<String, MetricSeries> series = current == null || !ownedBy(current, uid) ? new LinkedHashMap<>()
          : decode(current);
      batch.reports.forEach(report -> report.addTo(series, capacity));
      String data = encodeWithin(series);
      ConfigMap desired = new ConfigMapBuilder()
          .withNewMetadata().withName(name).withNamespace(batch.namespace)
          .withOwnerReferences(owner(batch.name, uid))
          .withResourceVersion(current == null ? null : current.getMetadata().getResourceVersion())
          .endMetadata()
          .withData(Map.of(KEY, data))
          .build();
      try {
        if (current == null) {
          client.configMaps().inNamespace(batch.namespace).resource(desired).create();
        } else {
          client.configMaps().inNamespace(batch.namespace).resource(desired).update();
        }
        return true;
      } catch (KubernetesClientException e) {
        // 409: another replica wrote, or created it first: merge into what it wrote
        if (e.getCode() != 409 || attempt >= CONFLICT_RETRIES) {
          throw e;
        }
      }
    }
  }

  private void requeue(Pending failed) {
    synchronized (pending) {
      Pending newer = pending.remove(failed.namespace + "/" + failed.name);
      if (newer != null) {
        failed.add(newer.uid, newer.reports);
      }
      pending.put(failed.namespace + "/" + failed.name, failed);
    }
  }

  private static OwnerReference owner(String name, String uid) {
    return new OwnerReferenceBuilder().withApiVersion(TrainerConstants.API_VERSION)
        .withKind(TrainerConstants.TRAINJOB_KIND).withName(name).withUid(uid).build();
  }

  private static boolean ownedBy(ConfigMap configMap, String uid) {
    return uid.isEmpty() || configMap.getMetadata().getOwnerReferences().stream()
        .anyMatch(owner -> uid.equals(owner.getUid()));
  }

  /** The series as JSON, every series thinned once more while it is over {@link #MAX_BYTES}. */
  String encodeWithin(Map<String, MetricSeries> series) {
    while (true) {
      String data = encode(series);
      if (data.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES
          || series.values().stream().allMatch(values -> values.kept().size() <= 2)) {
        return data;
      }
      series.values().forEach(MetricSeries::thin);
    }
  }

  /** {@code {"<metric>": {"reports": N, "stride": S, "points": [[report, millis, value], ...], "latest": [...]}}} */
  static String encode(Map<String, MetricSeries> series) {
    ObjectNode root = JSON.createObjectNode();
    series.forEach((metric, values) -> {
      ObjectNode node = root.putObject(metric);
      node.put("reports", values.state().reports()).put("stride", values.state().stride());
      ArrayNode points = node.putArray("points");
      values.kept().forEach(point -> points.add(array(point)));
      if (values.latest() != null) {
        node.set("latest", array(values.latest()));
      }
    });
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ArrayNode array(MetricPoint point) {
    return JSON.createArrayNode().add(point.report()).add(point.timeMillis()).add(point.value());
  }

  Map<String, MetricSeries> decode(ConfigMap configMap) {
    Map<String, MetricSeries> series = new LinkedHashMap<>();
    String data = Optional.ofNullable(configMap.getData()).map(values -> values.get(KEY)).orElse(null);
    if (data == null) {
      return series;
    }
    try {
      Iterator<Map.Entry<String, JsonNode>> metrics = JSON.readTree(data).fields();
      while (metrics.hasNext()) {
        Map.Entry<String, JsonNode> metric = metrics.next();
        JsonNode node = metric.getValue();
        List<MetricPoint> points = new ArrayList<>();
        node.path("points").forEach(point -> points.add(point(point)));
        SeriesState state = new SeriesState(node.path("reports").asLong(), node.path("stride").asLong(1));
        MetricPoint latest = node.has("latest") ? point(node.get("latest")) : null;
        series.put(metric.getKey(), new MetricSeries(capacity, state, points, latest));
      }
      return series;
    } catch (JsonProcessingException | IllegalArgumentException e) {
      LOG.warn("The metric history {}/{} cannot be read, starting it afresh: {}",
          configMap.getMetadata().getNamespace(), configMap.getMetadata().getName(), e.getMessage());
      return new LinkedHashMap<>();
    }
  }

  private static MetricPoint point(JsonNode array) {
    return new MetricPoint(array.path(0).asLong(), array.path(1).asLong(), array.path(2).asDouble());
  }

  /** Writes what is buffered, then stops. */
  @Override
  public synchronized void close() {
    if (flusher != null) {
      flusher.shutdownNow();
      flusher = null;
    }
    flush();
  }

  /** One metric's value in a report. */
  private record Report(String metric, long timeMillis, double value) {
    void addTo(Map<String, MetricSeries> series, int capacity) {
      series.computeIfAbsent(metric, key -> new MetricSeries(capacity)).add(timeMillis, value);
    }
  }

  /** A TrainJob's reports not written yet. */
  private static final class Pending {
    final String namespace;
    final String name;
    String uid = "";
    final List<Report> reports = new ArrayList<>();

    Pending(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }

    void add(String reportedUid, List<Report> more) {
      if (reportedUid != null && !reportedUid.isEmpty()) {
        if (!uid.isEmpty() && !uid.equals(reportedUid)) {
          reports.clear(); // the TrainJob was created again: the older one's reports go with it
        }
        uid = reportedUid;
      }
      reports.addAll(more);
      if (reports.size() > MAX_PENDING) {
        reports.subList(0, reports.size() - MAX_PENDING).clear();
      }
    }
  }
}
