package io.kftrainer.executor;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * A container's log file as a stream: from {@code tailLines} lines before the end (or the start), and, while
 * {@code more} says the process still runs, waiting for what it writes next ({@code kubectl logs -f}).
 */
final class LogStream extends InputStream {

  private static final long POLL_MILLIS = 100;

  private final RandomAccessFile file;
  private final BooleanSupplier more;

  LogStream(Path path, Integer tailLines, BooleanSupplier more) throws IOException {
    this.file = new RandomAccessFile(path.toFile(), "r");
    this.more = more;
    if (tailLines != null) {
      file.seek(tailOffset(file, tailLines));
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    while (true) {
      int n = file.read(buffer, offset, length);
      if (n > 0) {
        return n;
      }
      // read "still running" before the retry, so the last bytes written before the exit are not lost
      if (!more.getAsBoolean()) {
        n = file.read(buffer, offset, length);
        return n > 0 ? n : -1;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
    }
  }

  @Override
  public void close() throws IOException {
    file.close();
  }

  private static long tailOffset(RandomAccessFile file, int lines) throws IOException {
    long length = file.length();
    if (lines <= 0) {
      return length;
    }
    long position = length - 1;
    int newlines = 0;
    if (position >= 0) {
      file.seek(position);
      if (file.read() == '\n') {
        position--; // the final newline ends the last line, it does not start another
      }
    }
    for (; position >= 0; position--) {
      file.seek(position);
      if (file.read() == '\n' && ++newlines == lines) {
        return position + 1;
      }
    }
    return 0;
  }
}
