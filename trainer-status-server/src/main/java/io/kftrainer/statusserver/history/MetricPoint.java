package io.kftrainer.statusserver.history;

/**
 * One reported value of a metric.
 *
 * @param report the report's number in its series, from 0: the metric's {@code report}th value the status server
 *     accepted for this TrainJob
 * @param timeMillis when the status server accepted the report (milliseconds since the epoch)
 * @param value the reported value
 */
public record MetricPoint(long report, long timeMillis, double value) {
}
