package io.kftrainer.statusserver.history;

import io.kftrainer.api.v1alpha1.Metric;
import java.util.List;
import java.util.Map;

/**
 * Every metric a training reports to the status server, kept as a bounded series per TrainJob and metric
 * ({@link SeriesState}: at most {@link #POINTS_PER_SERIES} points, thinned evenly, plus the latest report). A value
 * that is not a number ({@code "nan"} aside, which Java reads) is not kept: only numbers are plotted.
 *
 * <p>A series belongs to one TrainJob, by UID: a TrainJob created again under the same name starts afresh.
 */
public interface MetricHistory {

  /** The points each series keeps at most, besides the latest report. */
  int POINTS_PER_SERIES = 1000;

  /**
   * Records one accepted report.
   *
   * @param uid the TrainJob's UID; empty when the status server does not know it (its cache lags)
   */
  void record(String namespace, String name, String uid, List<Metric> metrics, long timeMillis);

  /**
   * The series of a TrainJob by metric name, in the order they were first reported; empty for a TrainJob with no
   * history or one of another UID.
   */
  Map<String, List<MetricPoint>> series(String namespace, String name, String uid);

  /** Keeps nothing. */
  static MetricHistory none() {
    return new MetricHistory() {
      @Override
      public void record(String namespace, String name, String uid, List<Metric> metrics, long timeMillis) {
      }

      @Override
      public Map<String, List<MetricPoint>> series(String namespace, String name, String uid) {
        return Map.of();
      }
    };
  }

  /** The value of a reported metric, or null when it is not a finite number. */
  static Double valueOf(Metric metric) {
    if (metric == null || metric.getName() == null || metric.getValue() == null) {
      return null;
    }
    try {
      double value = Double.parseDouble(metric.getValue().trim());
      return Double.isFinite(value) ? value : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
