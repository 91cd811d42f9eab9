package io.kftrainer.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** client_golang's process metrics, read from a {@code /proc/self} as Linux writes it. */
class ProcessMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void cpuMemoryDescriptorsAndNetworkAreReadFromProc(@TempDir Path proc) throws IOException {
    writeProc(proc);

    new ProcessMetrics(proc, 4096).bindTo(registry);

    assertThat(registry.get("process.cpu.seconds").functionCounter().count()).isEqualTo(4.0);
    assertThat(gauge("process.resident.memory.bytes")).isEqualTo(2048.0 * 4096);
    assertThat(gauge("process.virtual.memory.bytes")).isEqualTo(8589934592.0);
    assertThat(gauge("process.virtual.memory.max.bytes")).isEqualTo(18446744073709551615d);
    assertThat(gauge("process.max.fds")).isEqualTo(1024);
    assertThat(gauge("process.open.fds")).isEqualTo(2);
    assertThat(registry.get("process.network.receive.bytes").functionCounter().count()).isEqualTo(1234);
    assertThat(registry.get("process.network.transmit.bytes").functionCounter().count()).isEqualTo(5678);
  }

  /** Micrometer holds the object a gauge or a function counter reads weakly, and the server keeps no binder. */
  @Test
  void theMetricsAreStillReadOnceNothingElseHoldsTheBinder(@TempDir Path proc) throws IOException {
    writeProc(proc);
    new ProcessMetrics(proc, 4096).bindTo(registry);

    System.gc();

    assertThat(gauge("process.resident.memory.bytes")).isEqualTo(2048.0 * 4096);
    assertThat(gauge("process.open.fds")).isEqualTo(2);
    assertThat(registry.get("process.cpu.seconds").functionCounter().count()).isEqualTo(4.0);
  }

  @Test
  void withoutProcNothingIsServed(@TempDir Path empty) {
    new ProcessMetrics(empty, 4096).bindTo(registry);

    assertThat(registry.getMeters()).isEmpty();
  }

  /** A {@code /proc/self} as Linux writes it. */
  private static void writeProc(Path proc) throws IOException {
    // the command name holds a space and a parenthesis, as it may
    Files.writeString(proc.resolve("stat"), "42 (java (x)) S 1 42 42 0 -1 4194560 100 0 0 0 250 150 0 0 20 0 30 0 "
        + "1000 8589934592 2048 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n");
    Files.writeString(proc.resolve("limits"), """
        Limit                     Soft Limit           Hard Limit           Units
        Max address space         unlimited            unlimited            bytes
        Max open files            1024                 4096                 files
        """);
    Files.createDirectories(proc.resolve("fd"));
    Files.createFile(proc.resolve("fd/0"));
    Files.createFile(proc.resolve("fd/1"));
    Files.createDirectories(proc.resolve("net"));
    Files.writeString(proc.resolve("net/netstat"), """
        TcpExt: SyncookiesSent
        TcpExt: 0
        IpExt: InNoRoutes InOctets OutOctets
        IpExt: 0 1234 5678
        """);
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }
}
