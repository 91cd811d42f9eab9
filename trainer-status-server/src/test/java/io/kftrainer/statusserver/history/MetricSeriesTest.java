package io.kftrainer.statusserver.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MetricSeriesTest {

  @Test
  void keepsEveryReportUntilFull() {
    MetricSeries series = new MetricSeries(10);
    for (int i = 0; i < 10; i++) {
      series.add(1000L + i, i);
    }
    assertThat(series.points()).extracting(MetricPoint::report).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L,
        9L);
  }

  @Test
  void thinsEvenlyWhenFullAndKeepsTheLatest() {
    MetricSeries series = new MetricSeries(10);
    for (int i = 0; i < 11; i++) {
      series.add(1000L + i, i);
    }
    // the 11th report doubled the stride: every other point kept, the 11th (report 10) among them
    assertThat(series.kept()).extracting(MetricPoint::report).containsExactly(0L, 2L, 4L, 6L, 8L, 10L);
    series.add(2000L, 11);
    assertThat(series.kept()).extracting(MetricPoint::report).containsExactly(0L, 2L, 4L, 6L, 8L, 10L);
    assertThat(series.points()).extracting(MetricPoint::report).containsExactly(0L, 2L, 4L, 6L, 8L, 10L, 11L);
    assertThat(series.points().get(6)).isEqualTo(new MetricPoint(11, 2000L, 11));
  }

  @Test
  void staysBoundedAndEvenOverManyReports() {
    MetricSeries series = new MetricSeries(MetricHistory.POINTS_PER_SERIES);
    int reports = 123_457;
    for (int i = 0; i < reports; i++) {
      series.add(i, i);
    }
    List<MetricPoint> kept = series.kept();
    assertThat(kept).hasSizeBetween(MetricHistory.POINTS_PER_SERIES / 2, MetricHistory.POINTS_PER_SERIES);
    long stride = series.state().stride();
    assertThat(kept).allSatisfy(point -> assertThat(point.report() % stride).isZero());
    for (int i = 1; i < kept.size(); i++) {
      assertThat(kept.get(i).report() - kept.get(i - 1).report()).isEqualTo(stride);
    }
    assertThat(kept.get(0).report()).isZero();
    assertThat(series.points().get(series.points().size() - 1).report()).isEqualTo(reports - 1);
  }

  @Test
  void aStateCountsItsKeptPoints() {
    assertThat(SeriesState.EMPTY.kept()).isZero();
    assertThat(new SeriesState(11, 2).kept()).isEqualTo(6);
    SeriesState.Step step = new SeriesState(20, 2).next(10);
    assertThat(step.kept()).isTrue();
    assertThat(step.thinned()).isTrue();
    assertThat(step.after()).isEqualTo(new SeriesState(21, 4));
    assertThat(new SeriesState(21, 4).next(10).kept()).isFalse();
  }
}
