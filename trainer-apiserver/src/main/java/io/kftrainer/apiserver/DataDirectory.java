package io.kftrainer.apiserver;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A directory that holds one server's durable state ({@link EmbeddedApiServer.Builder#dataDirectory}), private to
 * its owner (0700: it holds Secrets), with the database {@value #DATABASE}, the ServiceAccount signing key
 * {@value #SIGNING_KEY} and the lock file {@value #LOCK}.
 *
 * <p>One process at a time: the lock is an operating-system lock on {@value #LOCK} ({@link FileChannel#tryLock}),
 * held while the server runs and released by the system when the process ends, however it ends (a SIGKILL leaves
 * no stale lock behind). The file holds the holder's pid, for the message that refuses a second process.
 */
final class DataDirectory implements AutoCloseable {

  static final String DATABASE = "state.db";
  static final String LOCK = "lock";
  /** The ServiceAccount token signing key ({@link ServiceAccountTokens}), a JWK. */
  static final String SIGNING_KEY = "service-account-key.jwk";

  /**
   * The directories this process holds: checked before opening the lock file, as closing any channel of a file
   * drops every POSIX lock the process holds on it, the holder's included.
   */
  private static final java.util.Set<Path> HELD = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final Path directory;
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirectory(Path directory, FileChannel channel, FileLock lock) {
    this.directory = directory;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Creates {@code directory} if needed and locks it.
   *
   * @throws IllegalStateException when another process (or server of this process) holds it
   */
  static DataDirectory lock(Path directory) {
    Path dir = directory.toAbsolutePath().normalize();
    if (!HELD.add(dir)) {
      throw inUse(dir, ProcessHandle.current().pid() + ", this process");
    }
    try {
      if (!Files.isDirectory(dir)) {
        PrivateFiles.createDirectories(dir);
      }
      Path lockFile = dir.resolve(LOCK);
      FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        String holder = Files.readString(lockFile, StandardCharsets.US_ASCII).trim();
        channel.close();
        throw inUse(dir, holder);
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
          0);
      return new DataDirectory(dir, channel, lock);
    } catch (IOException e) {
      HELD.remove(dir);
      throw new IllegalStateException("cannot use the data directory " + dir + ": " + e, e);
    } catch (RuntimeException e) {
      HELD.remove(dir);
      throw e;
    }
  }

  private static IllegalStateException inUse(Path dir, String holder) {
    return new IllegalStateException("the data directory " + dir + " is in use by another trainer process"
        + (holder.isEmpty() ? "" : " (pid " + holder + ")") + ": stop it, or use another data directory");
  }

  Path path() {
    return directory;
  }

  Path database() {
    return directory.resolve(DATABASE);
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // the system releases the lock with the process anyway
    } finally {
      HELD.remove(directory);
    }
  }
}
