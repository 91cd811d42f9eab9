package io.kftrainer.statusserver.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A bounded series in memory ({@link SeriesState}'s rule): the kept points and the latest report. Not thread-safe.
 */
public final class MetricSeries {

  private final int capacity;
  private SeriesState state;
  private final List<MetricPoint> points;
  private MetricPoint latest;

  public MetricSeries(int capacity) {
    this(capacity, SeriesState.EMPTY, List.of(), null);
  }

  /** A series as a store kept it: {@code points} are those {@code state} keeps, in order. */
  public MetricSeries(int capacity, SeriesState state, List<MetricPoint> points, MetricPoint latest) {
    this.capacity = capacity;
    this.state = Objects.requireNonNull(state, "state");
    this.points = new ArrayList<>(points);
    this.latest = latest;
  }

  public void add(long timeMillis, double value) {
    SeriesState.Step step = state.next(capacity);
    MetricPoint point = new MetricPoint(step.report(), timeMillis, value);
    if (step.kept()) {
      points.add(point);
    }
    if (step.thinned()) {
      points.removeIf(kept -> !step.keeps(kept.report()));
    }
    latest = point;
    state = step.after();
  }

  /** Keeps every other point, as if the capacity were reached now (a store's size bound). */
  public void thin() {
    state = new SeriesState(state.reports(), state.stride() * 2);
    points.removeIf(kept -> kept.report() % state.stride() != 0);
  }

  public SeriesState state() {
    return state;
  }

  /** The kept points only. */
  public List<MetricPoint> kept() {
    return List.copyOf(points);
  }

  /** The latest report, kept or not; null before the first. */
  public MetricPoint latest() {
    return latest;
  }

  /** The kept points, then the latest report where it is not one of them: what is plotted. */
  public List<MetricPoint> points() {
    return withLatest(points, latest);
  }

  static List<MetricPoint> withLatest(List<MetricPoint> kept, MetricPoint latest) {
    if (latest == null || (!kept.isEmpty() && kept.get(kept.size() - 1).report() >= latest.report())) {
      return List.copyOf(kept);
    }
    List<MetricPoint> all = new ArrayList<>(kept.size() + 1);
    all.addAll(kept);
    all.add(latest);
    return List.copyOf(all);
  }
}
