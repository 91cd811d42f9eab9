package io.kftrainer.executor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.BooleanSupplier;

/**
 * A container's log as a stream, as the kubelet serves it: from {@code tailLines} lines before the end and from the
 * first line written at or after {@code since} (whichever starts later), each line prefixed with its RFC 3339 time
 * when {@code timestamps}, and, while {@code more} says the process still runs, waiting for what it writes next
 * ({@code kubectl logs -f}). It holds one buffer of the file, never the file.
 */
final class LogStream extends InputStream {

  private static final long POLL_MILLIS = 100;
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")
      .withZone(ZoneOffset.UTC);

  private final RandomAccessFile file;
  private final ContainerLog.Clock clock;
  private final BooleanSupplier more;
  private final byte[] chunk = new byte[8192];
  private byte[] pending = new byte[0];
  private int pendingPosition;
  private long position;
  private boolean lineStart = true;

  LogStream(ContainerLog log, Integer tailLines, Instant since, boolean timestamps, BooleanSupplier more)
      throws IOException {
    this.file = new RandomAccessFile(log.file.toFile(), "r");
    this.clock = timestamps ? log.new Clock() : null;
    this.more = more;
    long start = 0;
    if (tailLines != null) {
      start = ContainerLog.tailOffset(file, tailLines);
    }
    if (since != null) {
      start = Math.max(start, log.offsetSince(file, since));
    }
    position = start;
    file.seek(start);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (clock == null) {
      return readFile(buffer, offset, length); // straight into the caller's buffer: no copy, no garbage
    }
    while (pendingPosition == pending.length) {
      int n = readFile(chunk, 0, chunk.length);
      if (n < 0) {
        return -1;
      }
      pending = stamped(n);
      pendingPosition = 0;
    }
    int n = Math.min(length, pending.length - pendingPosition);
    System.arraycopy(pending, pendingPosition, buffer, offset, n);
    pendingPosition += n;
    return n;
  }

  private int readFile(byte[] buffer, int offset, int length) throws IOException {
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

  private byte[] stamped(int n) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(n + 64);
    for (int i = 0; i < n; i++) {
      if (lineStart) {
        out.writeBytes((rfc3339Nano(clock.timeOf(position + i)) + " ").getBytes(StandardCharsets.US_ASCII));
      }
      out.write(chunk[i]);
      lineStart = chunk[i] == '\n';
    }
    position += n;
    return out.toByteArray();
  }

  /** Go's {@code time.RFC3339Nano}, which the kubelet writes: nanoseconds without trailing zeros. */
  static String rfc3339Nano(Instant time) {
    String fraction = time.getNano() == 0 ? ""
        : ("." + String.format("%09d", time.getNano())).replaceFirst("0+$", "");
    return SECONDS.format(time) + fraction + "Z";
  }

  @Override
  public void close() throws IOException {
    file.close();
    if (clock != null) {
      clock.close();
    }
  }
}
