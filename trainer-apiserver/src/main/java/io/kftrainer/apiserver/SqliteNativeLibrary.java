package io.kftrainer.apiserver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * sqlite-jdbc's native library kept in the data directory, where the driver loads it from
 * ({@code org.sqlite.lib.path} and {@code org.sqlite.lib.name}, sqlite-jdbc's documented way to name a library).
 *
 * <p>Left to itself, the driver copies its library (1.1 MB) to a new file of the temporary directory at each start,
 * compares the copy with the jar's a byte at a time, and first scans the temporary directory for the copies of
 * earlier processes to delete: a quarter of a second of {@code local}'s start-up, on the path to its banner. Here
 * the copy is made once per data directory and sqlite-jdbc version, and compared in bulk at each start (a
 * changed file is written again). If this fails, or the library cannot be loaded from the data directory (a
 * {@code noexec} mount), nothing is set or sqlite-jdbc falls back to its own copy: only the time is lost. A
 * library already named by the user's {@code -Dorg.sqlite.lib.path} is left alone.
 */
final class SqliteNativeLibrary {

  private static final String PATH_PROPERTY = "org.sqlite.lib.path";
  private static final String NAME_PROPERTY = "org.sqlite.lib.name";
  private static final Logger LOG = LoggerFactory.getLogger(SqliteNativeLibrary.class);
  private static boolean provided;

  private SqliteNativeLibrary() {
  }

  /** Names the library in {@code directory} to sqlite-jdbc, copying it there if needed; once per process. */
  static synchronized void provide(Path directory) {
    if (provided || System.getProperty(PATH_PROPERTY) != null) {
      return;
    }
    provided = true;
    try {
      Optional<Path> file = keep(directory);
      if (file.isPresent()) {
        System.setProperty(PATH_PROPERTY, directory.toAbsolutePath().toString());
        System.setProperty(NAME_PROPERTY, file.get().getFileName().toString());
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("sqlite-jdbc's native library not kept in {}: {}", directory, e.toString());
    }
  }

  /**
   * The library of this platform in {@code directory}, copied from the jar unless an identical copy is there;
   * empty when the jar has none for this platform (sqlite-jdbc then says what it tried).
   */
  static Optional<Path> keep(Path directory) throws IOException {
    String name = LibraryLoaderUtil.getNativeLibName();
    byte[] library;
    try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(
        LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name)) {
      if (in == null) {
        return Optional.empty();
      }
      library = in.readAllBytes();
    }
    String fileName = "sqlite-" + SQLiteJDBCLoader.getVersion() + "-" + name;
    Path file = directory.resolve(fileName);
    if (!Files.isRegularFile(file) || !Arrays.equals(Files.readAllBytes(file), library)) {
      Path temporary = Files.createTempFile(directory, "." + fileName, ".tmp");
      try {
        Files.write(temporary, library);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(temporary);
      }
    }
    return Optional.of(file);
  }
}
