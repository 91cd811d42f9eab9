package io.kftrainer.statusserver.history;

/**
 * Where a bounded series stands: how many reports it has seen and which of them it keeps. The series keeps
 * exactly the reports whose number is a multiple of {@code stride}, plus the latest report; {@code stride} starts at
 * 1 and doubles each time the kept reports would exceed the capacity, dropping every other kept report. The kept
 * points stay evenly spread over the whole training, and never more than the capacity plus the latest.
 *
 * <p>Both stores ({@code local}'s database, a cluster's ConfigMap) apply this same rule.
 *
 * @param reports the reports seen so far
 * @param stride the distance between kept reports, a power of two
 */
public record SeriesState(long reports, long stride) {

  public static final SeriesState EMPTY = new SeriesState(0, 1);

  public SeriesState {
    if (reports < 0 || stride < 1 || Long.bitCount(stride) != 1) {
      throw new IllegalArgumentException("reports " + reports + ", stride " + stride);
    }
  }

  /** The number of kept points: multiples of {@code stride} below {@code reports}. */
  public long kept() {
    return (reports + stride - 1) / stride;
  }

  /** What the next report does to a series of at most {@code capacity} kept points. */
  public Step next(int capacity) {
    if (capacity < 2) {
      throw new IllegalArgumentException("a series keeps at least 2 points, not " + capacity);
    }
    long report = reports;
    if (report % stride != 0) {
      return new Step(report, false, false, new SeriesState(report + 1, stride));
    }
    SeriesState after = new SeriesState(report + 1, stride);
    if (after.kept() <= capacity) {
      return new Step(report, true, false, after);
    }
    return new Step(report, true, true, new SeriesState(report + 1, stride * 2));
  }

  /**
   * @param report the new report's number
   * @param kept whether it is kept as a point (else it is only the latest)
   * @param thinned whether the kept points were thinned: those whose number is not a multiple of the new stride
   *     (the new report among them, perhaps) are dropped
   * @param after the state after the report
   */
  public record Step(long report, boolean kept, boolean thinned, SeriesState after) {

    /** Whether a point kept before this step is still kept after it. */
    public boolean keeps(long keptReport) {
      return keptReport % after.stride() == 0;
    }
  }
}
