package io.kftrainer.local;

import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.apiserver.SqliteDatabase;
import io.kftrainer.statusserver.history.MetricHistory;
import io.kftrainer.statusserver.history.MetricPoint;
import io.kftrainer.statusserver.history.MetricSeries;
import io.kftrainer.statusserver.history.SeriesState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code local}'s metric history: a SQLite database beside the API server's ({@value #FILE} in the data directory,
 * through the same sqlite-jdbc), or in memory with {@code --ephemeral}. A row per kept point, a row per series
 * (its {@link SeriesState} and its latest report); each report is one transaction, committed before the status
 * server answers, with the API server's durability (write-ahead log, {@code synchronous=NORMAL}: a killed
 * {@code local} loses nothing it acknowledged). Opened, and its schema versioned, as the API server's database is
 * ({@link SqliteDatabase}).
 */
final class SqliteMetricHistory implements MetricHistory, AutoCloseable {

  static final String FILE = "metrics.db";
  private static final List<List<String>> MIGRATIONS = List.of(List.of(
      "CREATE TABLE series (namespace TEXT NOT NULL, trainjob TEXT NOT NULL, metric TEXT NOT NULL, "
          + "uid TEXT NOT NULL, position INTEGER NOT NULL, reports INTEGER NOT NULL, stride INTEGER NOT NULL, "
          + "latest_report INTEGER NOT NULL, latest_time INTEGER NOT NULL, latest_value REAL NOT NULL, "
          + "PRIMARY KEY (namespace, trainjob, metric)) WITHOUT ROWID",
      "CREATE TABLE points (namespace TEXT NOT NULL, trainjob TEXT NOT NULL, metric TEXT NOT NULL, "
          + "report INTEGER NOT NULL, time INTEGER NOT NULL, value REAL NOT NULL, "
          + "PRIMARY KEY (namespace, trainjob, metric, report)) WITHOUT ROWID"));
  private static final Logger LOG = LoggerFactory.getLogger(SqliteMetricHistory.class);

  private final String where;
  private final int capacity;
  private final Connection connection;

  private SqliteMetricHistory(String where, int capacity, Connection connection) {
    this.where = where;
    this.capacity = capacity;
    this.connection = connection;
  }

  /**
   * Opens (or creates) the history of the data directory {@code directory}, or one in memory when it is empty.
   *
   * @throws IllegalStateException when the database cannot be opened, or was written by a newer schema
   */
  static SqliteMetricHistory open(Optional<Path> directory, int capacity) {
    String what = "the metric history";
    return directory.map(dir -> dir.resolve(FILE))
        .map(file -> new SqliteMetricHistory(file.toString(), capacity, SqliteDatabase.open(file, MIGRATIONS, what)))
        .orElseGet(() -> new SqliteMetricHistory(":memory:", capacity, SqliteDatabase.inMemory(MIGRATIONS, what)));
  }

  @Override
  public synchronized void record(String namespace, String name, String uid, List<Metric> metrics,
      long timeMillis) {
    try {
      forgetOtherUid(namespace, name, uid);
      for (Metric metric : metrics == null ? List.<Metric>of() : metrics) {
        Double value = MetricHistory.valueOf(metric);
        if (value != null) {
          add(namespace, name, uid, metric.getName(), timeMillis, value);
        }
      }
      connection.commit();
    } catch (SQLException e) {
      rollback();
      LOG.warn("Cannot keep the metrics of TrainJob {}/{} in {}: {}", namespace, name, where, e.getMessage());
    }
  }

  /** A TrainJob created again under the same name starts afresh; one whose UID was not known takes this one. */
  private void forgetOtherUid(String namespace, String name, String uid) throws SQLException {
    if (uid.isEmpty()) {
      return;
    }
    try (PreparedStatement other = connection.prepareStatement(
        "SELECT 1 FROM series WHERE namespace = ? AND trainjob = ? AND uid <> '' AND uid <> ? LIMIT 1")) {
      other.setString(1, namespace);
      other.setString(2, name);
      other.setString(3, uid);
      try (ResultSet result = other.executeQuery()) {
        if (result.next()) {
          deleteRows(namespace, name);
        }
      }
    }
    try (PreparedStatement adopt = connection.prepareStatement(
        "UPDATE series SET uid = ? WHERE namespace = ? AND trainjob = ? AND uid = ''")) {
      adopt.setString(1, uid);
      adopt.setString(2, namespace);
      adopt.setString(3, name);
      adopt.executeUpdate();
    }
  }

  private void add(String namespace, String name, String uid, String metric, long timeMillis, double value)
      throws SQLException {
    SeriesState state = SeriesState.EMPTY;
    long position = -1;
    try (PreparedStatement select = connection.prepareStatement(
        "SELECT reports, stride, position FROM series WHERE namespace = ? AND trainjob = ? AND metric = ?")) {
      bind(select, namespace, name, metric);
      try (ResultSet result = select.executeQuery()) {
        if (result.next()) {
          state = new SeriesState(result.getLong(1), result.getLong(2));
          position = result.getLong(3);
        }
      }
    }
    if (position < 0) {
      try (PreparedStatement count = connection.prepareStatement(
          "SELECT COUNT(*) FROM series WHERE namespace = ? AND trainjob = ?")) {
        count.setString(1, namespace);
        count.setString(2, name);
        try (ResultSet result = count.executeQuery()) {
          position = result.getLong(1);
        }
      }
    }
    SeriesState.Step step = state.next(capacity);
    if (step.kept()) {
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT OR REPLACE INTO points (namespace, trainjob, metric, report, time, value) VALUES (?, ?, ?, ?, ?, ?)")) {
        bind(insert, namespace, name, metric);
        insert.setLong(4, step.report());
        insert.setLong(5, timeMillis);
        insert.setDouble(6, value);
        insert.executeUpdate();
      }
    }
    if (step.thinned()) {
      try (PreparedStatement thin = connection.prepareStatement(
          "DELETE FROM points WHERE namespace = ? AND trainjob = ? AND metric = ? AND report % ? <> 0")) {
        bind(thin, namespace, name, metric);
        thin.setLong(4, step.after().stride());
        thin.executeUpdate();
      }
    }
    try (PreparedStatement upsert = connection.prepareStatement("INSERT OR REPLACE INTO series (namespace, "
        + "trainjob, metric, uid, position, reports, stride, latest_report, latest_time, latest_value) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      bind(upsert, namespace, name, metric);
      upsert.setString(4, uid);
      upsert.setLong(5, position);
      upsert.setLong(6, step.after().reports());
      upsert.setLong(7, step.after().stride());
      upsert.setLong(8, step.report());
      upsert.setLong(9, timeMillis);
      upsert.setDouble(10, value);
      upsert.executeUpdate();
    }
  }

  @Override
  public synchronized Map<String, List<MetricPoint>> series(String namespace, String name, String uid) {
    Map<String, List<MetricPoint>> series = new LinkedHashMap<>();
    try (PreparedStatement select = connection.prepareStatement("SELECT metric, uid, reports, stride, "
        + "latest_report, latest_time, latest_value FROM series WHERE namespace = ? AND trainjob = ? "
        + "ORDER BY position");
         PreparedStatement points = connection.prepareStatement("SELECT report, time, value FROM points "
             + "WHERE namespace = ? AND trainjob = ? AND metric = ? ORDER BY report")) {
      select.setString(1, namespace);
      select.setString(2, name);
      try (ResultSet result = select.executeQuery()) {
        while (result.next()) {
          String stored = result.getString(2);
          if (!uid.isEmpty() && !stored.isEmpty() && !stored.equals(uid)) {
            continue;
          }
          String metric = result.getString(1);
          SeriesState state = new SeriesState(result.getLong(3), result.getLong(4));
          MetricPoint latest = new MetricPoint(result.getLong(5), result.getLong(6), result.getDouble(7));
          bind(points, namespace, name, metric);
          List<MetricPoint> kept = new ArrayList<>();
          try (ResultSet rows = points.executeQuery()) {
            while (rows.next()) {
              kept.add(new MetricPoint(rows.getLong(1), rows.getLong(2), rows.getDouble(3)));
            }
          }
          series.put(metric, new MetricSeries(capacity, state, kept, latest).points());
        }
      }
      connection.commit();
      return series;
    } catch (SQLException e) {
      rollback();
      throw new IllegalStateException("cannot read the metric history " + where + ": " + e.getMessage(), e);
    }
  }

  /** Forgets a deleted TrainJob's series. */
  synchronized void delete(String namespace, String name) {
    try {
      deleteRows(namespace, name);
      connection.commit();
    } catch (SQLException e) {
      rollback();
      LOG.warn("Cannot delete the metrics of TrainJob {}/{} from {}: {}", namespace, name, where, e.getMessage());
    }
  }

  /** Forgets the series of every TrainJob but {@code existing} ({@code namespace/name}): those deleted meanwhile. */
  synchronized void retainOnly(Set<String> existing) {
    List<String[]> gone = new ArrayList<>();
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SELECT DISTINCT namespace, trainjob FROM series")) {
      while (result.next()) {
        if (!existing.contains(result.getString(1) + "/" + result.getString(2))) {
          gone.add(new String[] {result.getString(1), result.getString(2)});
        }
      }
      for (String[] trainJob : gone) {
        deleteRows(trainJob[0], trainJob[1]);
      }
      connection.commit();
    } catch (SQLException e) {
      rollback();
      LOG.warn("Cannot forget the metrics of deleted TrainJobs in {}: {}", where, e.getMessage());
    }
  }

  private void deleteRows(String namespace, String name) throws SQLException {
    for (String table : List.of("series", "points")) {
      try (PreparedStatement delete = connection.prepareStatement(
          "DELETE FROM " + table + " WHERE namespace = ? AND trainjob = ?")) {
        delete.setString(1, namespace);
        delete.setString(2, name);
        delete.executeUpdate();
      }
    }
  }

  private static void bind(PreparedStatement statement, String namespace, String name, String metric)
      throws SQLException {
    statement.setString(1, namespace);
    statement.setString(2, name);
    statement.setString(3, metric);
  }

  private void rollback() {
    try {
      connection.rollback();
    } catch (SQLException e) {
      LOG.debug("Rollback of {} failed: {}", where, e.getMessage());
    }
  }

  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // every write was committed when it returned
    }
  }
}
