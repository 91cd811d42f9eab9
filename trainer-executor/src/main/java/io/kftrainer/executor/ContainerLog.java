package io.kftrainer.executor;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Arrays;

/**
 * The log of one container instance: {@code logs/<container>.log} holds what its processes write (they write the
 * file directly, the kubelet copies nothing), and {@code logs/<container>.log.times} when: records of (length,
 * time), "at this time the log was this long", appended by the {@link LogClock} when the log grew. A byte's time is
 * that of the first record past it, so {@code kubectl logs --timestamps} and {@code --since} are exact to the
 * clock's period. When the container restarts, its log becomes {@code <container>.previous.log}
 * ({@code kubectl logs --previous}). Every read here is bounded: the tail is read from the end of the file, the
 * times by binary search.
 */
final class ContainerLog {

  private static final int RECORD = 16;
  private static final int BLOCK = 8192;

  final Path file;
  final Path times;
  /** The length last recorded in {@link #times}; written by the clock's thread only. */
  private long recorded = -1;

  ContainerLog(Path file) {
    this.file = file;
    this.times = file.resolveSibling(file.getFileName() + ".times");
  }

  static ContainerLog of(Path logDir, String container, boolean previous) {
    return new ContainerLog(logDir.resolve(container + (previous ? ".previous.log" : ".log")));
  }

  /** Records the log's length now, if it grew. */
  synchronized void sample(Instant now) {
    try {
      long length = Files.exists(file) ? Files.size(file) : 0;
      if (length == recorded) {
        return;
      }
      ByteBuffer record = ByteBuffer.allocate(RECORD).putLong(length).putLong(nanos(now));
      Files.write(times, record.array(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      recorded = length;
    } catch (IOException e) {
      // the pod's directory went with the pod
    }
  }

  /** The instance ended and another starts: this log becomes the previous one. */
  synchronized void rotate() throws IOException {
    ContainerLog previous = new ContainerLog(file.resolveSibling(file.getFileName().toString()
        .replaceFirst("\\.log$", ".previous.log")));
    if (Files.exists(file)) {
      Files.move(file, previous.file, StandardCopyOption.REPLACE_EXISTING);
    }
    if (Files.exists(times)) {
      Files.move(times, previous.times, StandardCopyOption.REPLACE_EXISTING);
    } else {
      Files.deleteIfExists(previous.times);
    }
    recorded = -1;
  }

  /**
   * The last {@code lines} lines of the log, at most {@code maxBytes} of its end (a longer last line is cut at its
   * start), as {@code terminationMessagePolicy: FallbackToLogsOnError} does: never more than {@code maxBytes} read.
   */
  static String tail(Path file, int lines, int maxBytes) {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long length = in.length();
      int size = (int) Math.min(length, maxBytes);
      byte[] bytes = new byte[size];
      in.seek(length - size);
      in.readFully(bytes);
      // a character cut by the window's start decodes to U+FFFD: drop it
      String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(bytes)).toString();
      if (size < length) {
        text = text.replaceFirst("^\uFFFD+", "");
      }
      if (text.endsWith("\n")) {
        text = text.substring(0, text.length() - 1);
      }
      String[] all = text.split("\n", -1);
      return String.join("\n", Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    } catch (IOException e) {
      return "";
    }
  }

  /** Where the last {@code lines} lines start, reading back from the end a block at a time. */
  static long tailOffset(RandomAccessFile file, int lines) throws IOException {
    long length = file.length();
    if (lines <= 0) {
      return length;
    }
    byte[] block = new byte[BLOCK];
    int newlines = 0;
    long end = length;
    boolean last = true;
    while (end > 0) {
      int size = (int) Math.min(BLOCK, end);
      long start = end - size;
      file.seek(start);
      file.readFully(block, 0, size);
      for (int i = size - 1; i >= 0; i--) {
        if (last) {
          last = false;
          if (block[i] == '\n') {
            continue; // the final newline ends the last line, it does not start another
          }
        }
        if (block[i] == '\n' && ++newlines == lines) {
          return start + i + 1;
        }
      }
      end = start;
    }
    return 0;
  }

  /** The offset of the first line written at or after {@code since} (the log's recorded length if none). */
  long offsetSince(RandomAccessFile log, Instant since) throws IOException {
    long start = 0;
    if (Files.exists(times)) {
      try (RandomAccessFile in = new RandomAccessFile(times.toFile(), "r")) {
        long count = in.length() / RECORD;
        long low = 0;
        long high = count; // first record with time >= since, in [low, high]
        long target = nanos(since);
        while (low < high) {
          long mid = (low + high) >>> 1;
          if (record(in, mid)[1] >= target) {
            high = mid;
          } else {
            low = mid + 1;
          }
        }
        // bytes before the previous record's length were written before `since`
        start = low == 0 ? 0 : record(in, low - 1)[0];
      }
    }
    return lineStartAtOrAfter(log, start);
  }

  private static long lineStartAtOrAfter(RandomAccessFile log, long offset) throws IOException {
    if (offset == 0) {
      return 0;
    }
    byte[] block = new byte[BLOCK];
    long position = offset - 1; // the line starts here if the byte before is a newline
    while (position < log.length()) {
      log.seek(position);
      int n = log.read(block);
      for (int i = 0; i < n; i++) {
        if (block[i] == '\n') {
          return position + i + 1;
        }
      }
      position += Math.max(n, 0);
      if (n <= 0) {
        break;
      }
    }
    return log.length();
  }

  /** Reads the times of successive offsets, for a stream that walks the log forwards. */
  final class Clock implements AutoCloseable {
    private final RandomAccessFile in;
    private long index;
    private long[] current;

    Clock() throws IOException {
      in = Files.exists(times) ? new RandomAccessFile(times.toFile(), "r") : null;
    }

    /** The time of the byte at {@code offset} (offsets asked in increasing order); now if not recorded yet. */
    Instant timeOf(long offset) throws IOException {
      while (in != null && (current == null || current[0] <= offset) && index < in.length() / RECORD) {
        current = record(in, index++);
      }
      return current != null && current[0] > offset ? instant(current[1]) : Instant.now();
    }

    @Override
    public void close() throws IOException {
      if (in != null) {
        in.close();
      }
    }
  }

  private static long[] record(RandomAccessFile in, long index) throws IOException {
    byte[] bytes = new byte[RECORD];
    in.seek(index * RECORD);
    in.readFully(bytes);
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    return new long[] {buffer.getLong(), buffer.getLong()};
  }

  private static long nanos(Instant time) {
    return time.getEpochSecond() * 1_000_000_000L + time.getNano();
  }

  private static Instant instant(long nanos) {
    return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
  }
}
