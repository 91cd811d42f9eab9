package io.kftrainer.apiserver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Files and directories only their owner may read: credentials (kubeconfigs, tokens), the durable store. */
final class PrivateFiles {

  private PrivateFiles() {
  }

  /**
   * Writes {@code text} to {@code file} with mode 0600: into a new file created with that mode in the same
   * directory, then moved over {@code file}, so the credential is never readable by others, not even for a moment.
   */
  static void write(Path file, String text) throws IOException {
    Path absolute = file.toAbsolutePath();
    Path parent = absolute.getParent();
    Files.createDirectories(parent);
    if (!posix()) {
      Files.writeString(absolute, text, StandardCharsets.UTF_8);
      return;
    }
    Path temporary = Files.createTempFile(parent, "." + absolute.getFileName(), ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** Creates {@code file}, empty and with mode 0600, unless it exists. */
  static void createFile(Path file) throws IOException {
    if (!Files.exists(file) && posix()) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
  }

  /** Creates {@code directory} and its missing parents, the directory with mode 0700. */
  static void createDirectories(Path directory) throws IOException {
    if (posix()) {
      Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(directory);
    }
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }
}
