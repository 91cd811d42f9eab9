package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A container's log read as the kubelet reads it: from the end, by time, never whole. */
class ContainerLogTest {

  private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.120Z");

  @TempDir
  Path dir;

  @Test
  void theFailureMessageTailOfAHugeOneLineLogReadsOnlyItsEnd() throws IOException {
    Path log = dir.resolve("node.log");
    try (OutputStream out = Files.newOutputStream(log)) {
      byte[] block = "x".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < 64; i++) {
        out.write(block); // one 64 MiB line, as the 20 MB line that took local to 1.5 GB
      }
      out.write("\nloss is nan\n".getBytes(StandardCharsets.US_ASCII));
    }
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();

    String tail = ContainerLog.tail(log, 20, 2048);

    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(tail).endsWith("x\nloss is nan").hasSizeLessThanOrEqualTo(2048);
    assertThat(allocated).as("bytes allocated to read the tail of a 64 MiB log").isLessThan(256 * 1024);
  }

  @Test
  void theTailKeepsTheLastLinesAndDropsACharacterCutByTheWindow() throws IOException {
    Path log = dir.resolve("node.log");
    Files.writeString(log, "é".repeat(3000) + "\n" + "line 1\nline 2\nline 3\n");
    assertThat(ContainerLog.tail(log, 2, 2048)).isEqualTo("line 2\nline 3");
    assertThat(ContainerLog.tail(log, 20, 100)).doesNotContain("\uFFFD").endsWith("é\nline 1\nline 2\nline 3");
    assertThat(ContainerLog.tail(dir.resolve("missing.log"), 20, 100)).isEmpty();
  }

  @Test
  void tailLinesStartsThatManyLinesBeforeTheEndAcrossBlocks() throws IOException {
    ContainerLog log = ContainerLog.of(dir, "node", false);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      text.append("line ").append(i).append('\n');
    }
    Files.writeString(log.file, text);
    assertThat(read(log, 3, null, false)).isEqualTo("line 4997\nline 4998\nline 4999\n");
    assertThat(read(log, 0, null, false)).isEmpty();
    assertThat(read(log, 10_000, null, false)).isEqualTo(text.toString());
  }

  @Test
  void timestampsAndSinceFollowTheClocksRecords() throws IOException {
    ContainerLog log = ContainerLog.of(dir, "node", false);
    log.sample(T0);
    Files.writeString(log.file, "a1\na2\n");
    log.sample(T0.plusSeconds(10));
    Files.writeString(log.file, "b1\nb", java.nio.file.StandardOpenOption.APPEND);
    log.sample(T0.plusSeconds(20));
    Files.writeString(log.file, "2\nc1\n", java.nio.file.StandardOpenOption.APPEND);
    log.sample(T0.plusSeconds(30));

    assertThat(read(log, null, null, true)).isEqualTo("""
        2026-01-02T03:04:15.12Z a1
        2026-01-02T03:04:15.12Z a2
        2026-01-02T03:04:25.12Z b1
        2026-01-02T03:04:25.12Z b2
        2026-01-02T03:04:35.12Z c1
        """);
    assertThat(read(log, null, T0.plusSeconds(25), false)).as("b2 began before, its end after: not shown")
        .isEqualTo("c1\n");
    assertThat(read(log, null, T0.plusSeconds(15), false)).isEqualTo("b1\nb2\nc1\n");
    assertThat(read(log, null, T0, false)).isEqualTo("a1\na2\nb1\nb2\nc1\n");
    assertThat(read(log, 4, T0.plusSeconds(15), false)).isEqualTo("b1\nb2\nc1\n");
    assertThat(read(log, 1, T0.plusSeconds(15), false)).isEqualTo("c1\n");
    assertThat(read(log, null, T0.plusSeconds(60), false)).isEmpty();
  }

  @Test
  void aRestartKeepsThePreviousLog() throws IOException {
    ContainerLog log = ContainerLog.of(dir, "node", false);
    log.sample(T0);
    Files.writeString(log.file, "first\n");
    log.sample(T0.plusSeconds(1));
    log.rotate();
    Files.writeString(log.file, "second\n");

    ContainerLog previous = ContainerLog.of(dir, "node", true);
    assertThat(read(previous, null, null, true)).isEqualTo("2026-01-02T03:04:06.12Z first\n");
    assertThat(read(log, null, null, false)).isEqualTo("second\n");
  }

  @Test
  void rfc3339NanoDropsTrailingZeros() {
    assertThat(LogStream.rfc3339Nano(Instant.parse("2026-01-02T03:04:05Z"))).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(LogStream.rfc3339Nano(Instant.parse("2026-01-02T03:04:05.000001200Z")))
        .isEqualTo("2026-01-02T03:04:05.0000012Z");
  }

  private static String read(ContainerLog log, Integer tail, Instant since, boolean timestamps) throws IOException {
    try (InputStream in = new LogStream(log, tail, since, timestamps, () -> false)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
