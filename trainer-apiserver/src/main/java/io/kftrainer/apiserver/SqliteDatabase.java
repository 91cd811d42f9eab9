package io.kftrainer.apiserver;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A SQLite database as this server keeps its objects ({@link SqliteStorage}), for {@code local}'s other durable
 * stores to be kept the same way: the file created readable by its owner only, the driver's native library kept
 * beside it ({@link SqliteNativeLibrary}), a write-ahead log with {@code synchronous=NORMAL}, and the schema versioned
 * with SQLite's {@code PRAGMA user_version}: migration {@code i} moves a database from version {@code i} to
 * {@code i + 1}, in one transaction; a database of a newer schema is refused rather than misread.
 */
public final class SqliteDatabase {

  private SqliteDatabase() {
  }

  /**
   * Opens (or creates) {@code file} and brings its schema up to date.
   *
   * @param what the database in messages, e.g. {@code "the database"}
   * @return the connection, auto-commit off
   * @throws IllegalStateException when it cannot be opened, or was written by a newer schema
   */
  public static Connection open(Path file, List<List<String>> migrations, String what) {
    try {
      // SQLite gives its -wal and -shm files the database file's mode
      PrivateFiles.createFile(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot create " + what + " " + file + ": " + e, e);
    }
    SqliteNativeLibrary.provide(file.toAbsolutePath().getParent());
    return connect("jdbc:sqlite:" + file.toAbsolutePath(), true, migrations, what + " " + file);
  }

  /** A database in memory, gone with its connection, with the same schema. */
  public static Connection inMemory(List<List<String>> migrations, String what) {
    return connect("jdbc:sqlite::memory:", false, migrations, what + " in memory");
  }

  private static Connection connect(String url, boolean durable, List<List<String>> migrations, String named) {
    try {
      Connection connection = DriverManager.getConnection(url);
      try {
        if (durable) {
          try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = WAL");
            statement.execute("PRAGMA synchronous = NORMAL");
          }
        }
        migrate(named, connection, migrations);
        connection.setAutoCommit(false);
        return connection;
      } catch (SQLException | RuntimeException e) {
        connection.close();
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open " + named + ": " + e.getMessage(), e);
    }
  }

  private static void migrate(String named, Connection connection, List<List<String>> migrations)
      throws SQLException {
    int version;
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("PRAGMA user_version")) {
      version = result.getInt(1);
    }
    if (version > migrations.size()) {
      throw new IllegalStateException(named + " was written by a newer version of the trainer (schema " + version
          + "; this version reads schemas up to " + migrations.size() + "): run that version, or start on another "
          + "data directory");
    }
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      for (int next = version; next < migrations.size(); next++) {
        for (String sql : migrations.get(next)) {
          statement.execute(sql);
        }
        statement.execute("PRAGMA user_version = " + (next + 1));
        connection.commit();
      }
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
  }
}
