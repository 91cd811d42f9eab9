package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

class SqliteNativeLibraryTest {

  @TempDir
  Path directory;

  @Test
  void theLibraryIsCopiedOnceAndACopyThatDiffersFromTheJarsIsWrittenAgain() throws Exception {
    byte[] jars;
    try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(
        LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName())) {
      assertThat(in).as("sqlite-jdbc ships a library for this platform").isNotNull();
      jars = in.readAllBytes();
    }

    Path file = SqliteNativeLibrary.keep(directory).orElseThrow();
    assertThat(file.getParent()).isEqualTo(directory);
    assertThat(file.getFileName().toString()).contains(SQLiteJDBCLoader.getVersion());
    assertThat(Files.readAllBytes(file)).isEqualTo(jars);
    long copied = Files.getLastModifiedTime(file).toMillis();

    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(copied - 60_000));
    assertThat(SqliteNativeLibrary.keep(directory)).contains(file);
    assertThat(Files.getLastModifiedTime(file).toMillis()).as("an identical copy is kept as it is")
        .isEqualTo(copied - 60_000);

    Files.write(file, new byte[] {1, 2, 3});
    assertThat(SqliteNativeLibrary.keep(directory)).contains(file);
    assertThat(Files.readAllBytes(file)).isEqualTo(jars);
    try (var files = Files.list(directory)) {
      assertThat(files).as("no temporary file left behind").containsExactly(file);
    }
  }
}
