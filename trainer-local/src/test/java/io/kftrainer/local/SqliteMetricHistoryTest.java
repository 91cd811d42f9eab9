package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.statusserver.history.MetricHistory;
import io.kftrainer.statusserver.history.MetricPoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteMetricHistoryTest {

  @TempDir
  Path data;

  private static List<Metric> metrics(double loss, double accuracy) {
    return List.of(new Metric().withName("loss").withValue(Double.toString(loss)),
        new Metric().withName("accuracy").withValue(Double.toString(accuracy)),
        new Metric().withName("stage").withValue("train"));
  }

  @Test
  void seriesSurviveARestartInTheDataDirectory() throws Exception {
    try (SqliteMetricHistory history = SqliteMetricHistory.open(Optional.of(data), 100)) {
      for (int i = 0; i < 10; i++) {
        history.record("team", "mnist", "uid-1", metrics(1.0 / (i + 1), i / 10.0), 1_000L * i);
      }
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve(SqliteMetricHistory.FILE))))
        .isEqualTo("rw-------");
    try (SqliteMetricHistory history = SqliteMetricHistory.open(Optional.of(data), 100)) {
      Map<String, List<MetricPoint>> series = history.series("team", "mnist", "uid-1");
      assertThat(series.keySet()).containsExactly("loss", "accuracy");
      assertThat(series.get("loss")).hasSize(10);
      assertThat(series.get("loss").get(9)).isEqualTo(new MetricPoint(9, 9_000L, 0.1));
      assertThat(history.series("team", "other", "")).isEmpty();
    }
  }

  @Test
  void aFullSeriesIsThinnedEvenlyAsInMemory() {
    try (SqliteMetricHistory history = SqliteMetricHistory.open(Optional.empty(), 10)) {
      io.kftrainer.statusserver.history.MetricSeries expected =
          new io.kftrainer.statusserver.history.MetricSeries(10);
      for (int i = 0; i < 77; i++) {
        history.record("team", "mnist", "uid-1", metrics(i, i), i);
        expected.add(i, i);
      }
      assertThat(history.series("team", "mnist", "uid-1").get("loss")).isEqualTo(expected.points())
          .hasSizeLessThanOrEqualTo(11);
    }
  }

  @Test
  void aTrainJobCreatedAgainOrDeletedForgetsItsSeries() {
    try (SqliteMetricHistory history = SqliteMetricHistory.open(Optional.empty(), MetricHistory.POINTS_PER_SERIES)) {
      history.record("team", "mnist", "", metrics(3, 0), 1);
      history.record("team", "mnist", "uid-1", metrics(2, 0), 2);
      assertThat(history.series("team", "mnist", "uid-1").get("loss")).extracting(MetricPoint::value)
          .containsExactly(3.0, 2.0);
      history.record("team", "mnist", "uid-2", metrics(9, 0), 3);
      assertThat(history.series("team", "mnist", "uid-1")).isEmpty();
      assertThat(history.series("team", "mnist", "uid-2").get("loss")).extracting(MetricPoint::value)
          .containsExactly(9.0);

      history.record("team", "kept", "uid-3", metrics(1, 0), 4);
      history.retainOnly(Set.of("team/kept"));
      assertThat(history.series("team", "mnist", "uid-2")).isEmpty();
      history.delete("team", "kept");
      assertThat(history.series("team", "kept", "uid-3")).isEmpty();
    }
  }
}
