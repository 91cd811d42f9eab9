package io.kftrainer.apiserver;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The objects and the resourceVersion counter in a SQLite database (one file, as k3s keeps a cluster's state in
 * SQLite through kine), through {@code org.xerial:sqlite-jdbc}.
 *
 * <p>Durability: each write is one transaction, committed before {@link #put}/{@link #delete} return, so before the
 * API answers 2xx. The journal is a write-ahead log with {@code synchronous=NORMAL}: a commit is in the operating
 * system's file cache once it returns, so a killed process (SIGKILL, a crash, an out-of-memory kill) loses nothing
 * acknowledged; an operating-system crash or a power cut may lose the last commits before the next checkpoint, but
 * never leaves the database inconsistent. {@code synchronous=FULL} would add an fsync (milliseconds on a disk) to
 * every write, serialised under the store's commit lock: for a workstation's tool, whose promise is that a killed
 * {@code local} keeps what it acknowledged, the wrong price (docs/benchmarks.md has the cost of {@code NORMAL}).
 *
 * <p>Schema: versioned with SQLite's own {@code PRAGMA user_version} and the {@link #MIGRATIONS} below, applied in
 * order in one transaction each ({@link SqliteDatabase}, which {@code local}'s metric history shares). Flyway would do the same with a second library, a classpath scan at every start
 * of {@code local} and its own history table, for one table and a counter; and {@code user_version} is what a newer
 * schema is recognised by, so an older version refuses a database it cannot read instead of misreading it.
 *
 * <p>Writes run under the store's commit lock, one at a time: with {@code NORMAL} a commit is an append to the
 * log, without an fsync. Committing outside the lock in groups would need the store to hide writes not yet durable
 * from readers and watchers while the next writer compares against them: more machinery than the measured cost
 * asks for (docs/benchmarks.md, "the durable store"). The connection is used by no one else.
 */
final class SqliteStorage implements Storage {

  /** The schema versions: entry {@code i} moves a database from version {@code i} to {@code i + 1}. */
  private static final List<List<String>> MIGRATIONS = List.of(List.of(
      "CREATE TABLE objects (api_group TEXT NOT NULL, resource TEXT NOT NULL, namespace TEXT NOT NULL, "
          + "name TEXT NOT NULL, resource_version INTEGER NOT NULL, object TEXT NOT NULL, "
          + "PRIMARY KEY (api_group, resource, namespace, name)) WITHOUT ROWID",
      "CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
      "INSERT INTO counters (name, value) VALUES ('resourceVersion', 0)"));
  /** The schema this version writes. */
  static final int SCHEMA_VERSION = MIGRATIONS.size();

  private final Path file;
  private final Connection connection;
  private final PreparedStatement upsert;
  private final PreparedStatement delete;
  private final PreparedStatement counter;

  private SqliteStorage(Path file, Connection connection) throws SQLException {
    this.file = file;
    this.connection = connection;
    this.upsert = connection.prepareStatement("INSERT OR REPLACE INTO objects "
        + "(api_group, resource, namespace, name, resource_version, object) VALUES (?, ?, ?, ?, ?, ?)");
    this.delete = connection.prepareStatement("DELETE FROM objects WHERE api_group = ? AND resource = ? "
        + "AND namespace = ? AND name = ?");
    this.counter = connection.prepareStatement("UPDATE counters SET value = ? WHERE name = 'resourceVersion'");
  }

  /**
   * Opens (or creates, readable by its owner only) the database {@code file} and brings its schema to
   * {@link #SCHEMA_VERSION}.
   *
   * @throws IllegalStateException when the file was written by a newer schema, or is not a database of this server
   */
  static SqliteStorage open(Path file) {
    Connection connection = SqliteDatabase.open(file, MIGRATIONS, "the database");
    try {
      return new SqliteStorage(file, connection);
    } catch (SQLException e) {
      try {
        connection.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw new IllegalStateException("cannot open the database " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public long resourceVersion() {
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SELECT value FROM counters WHERE name = 'resourceVersion'")) {
      return result.next() ? result.getLong(1) : 0;
    } catch (SQLException e) {
      throw failure("read", e);
    }
  }

  @Override
  public List<Row> objects() {
    List<Row> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SELECT api_group, resource, resource_version, object "
             + "FROM objects ORDER BY resource_version")) {
      while (result.next()) {
        rows.add(new Row(new Store.Kind(result.getString(1), result.getString(2)), result.getString(4),
            result.getLong(3)));
      }
      connection.commit();
      return rows;
    } catch (SQLException e) {
      throw failure("read", e);
    }
  }

  @Override
  public void put(Store.Kind kind, String namespace, String name, String json, long resourceVersion) {
    try {
      upsert.setString(1, kind.group());
      upsert.setString(2, kind.plural());
      upsert.setString(3, namespace);
      upsert.setString(4, name);
      upsert.setLong(5, resourceVersion);
      upsert.setString(6, json);
      upsert.executeUpdate();
      commit(resourceVersion);
    } catch (SQLException e) {
      throw rolledBack(e);
    }
  }

  @Override
  public void delete(Store.Kind kind, String namespace, String name, long resourceVersion) {
    try {
      delete.setString(1, kind.group());
      delete.setString(2, kind.plural());
      delete.setString(3, namespace);
      delete.setString(4, name);
      delete.executeUpdate();
      commit(resourceVersion);
    } catch (SQLException e) {
      throw rolledBack(e);
    }
  }

  @Override
  public void clear() {
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("DELETE FROM objects");
      connection.commit();
    } catch (SQLException e) {
      throw rolledBack(e);
    }
  }

  private void commit(long resourceVersion) throws SQLException {
    counter.setLong(1, resourceVersion);
    counter.executeUpdate();
    connection.commit();
  }

  private IllegalStateException rolledBack(SQLException e) {
    try {
      connection.rollback();
    } catch (SQLException rollback) {
      e.addSuppressed(rollback);
    }
    return failure("write", e);
  }

  private IllegalStateException failure(String what, SQLException e) {
    return new IllegalStateException("cannot " + what + " the database " + file + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // closing anyway: every write was committed when it returned
    }
  }
}
