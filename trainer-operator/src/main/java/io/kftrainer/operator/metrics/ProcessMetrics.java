package io.kftrainer.operator.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * client_golang's process collector, which controller-runtime registers, under its names: read from {@code /proc}
 * when scraped, as it reads them, so nothing is served where there is no {@code /proc} (not Linux).
 *
 * <ul>
 *   <li>{@code process_cpu_seconds_total}: user and system CPU time;</li>
 *   <li>{@code process_resident_memory_bytes}, {@code process_virtual_memory_bytes},
 *       {@code process_virtual_memory_max_bytes} (the address-space limit);</li>
 *   <li>{@code process_open_fds}, {@code process_max_fds};</li>
 *   <li>{@code process_network_receive_bytes_total}, {@code process_network_transmit_bytes_total}: the IP bytes of the
 *       process's network namespace ({@code IpExt} of {@code net/netstat}).</li>
 * </ul>
 *
 * {@code process_start_time_seconds} is Micrometer's (its uptime binder), with the same meaning.
 *
 * <p>Micrometer holds the object a gauge or a function counter reads weakly, and whoever binds this keeps no
 * reference to it: the gauges hold it strongly, and so keep it for the counters too. Without that, the first garbage
 * collection turned the gauges into NaN and stopped the counters (the dashboard's memory and CPU panels, empty).
 */
public final class ProcessMetrics implements MeterBinder {

  /** Linux's USER_HZ, which client_golang assumes too. */
  private static final double TICKS_PER_SECOND = 100;
  private static final double UNLIMITED = 18446744073709551615d;

  private final Path proc;
  private final long pageSize;

  public ProcessMetrics() {
    this(Path.of("/proc/self"), 4096);
  }

  ProcessMetrics(Path proc, long pageSize) {
    this.proc = proc;
    this.pageSize = pageSize;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    if (!Files.isReadable(proc.resolve("stat"))) {
      return;
    }
    FunctionCounter.builder("process.cpu.seconds", this,
            metrics -> (metrics.statField(14) + metrics.statField(15)) / TICKS_PER_SECOND)
        .description("Total user and system CPU time spent in seconds.").register(registry);
    gauge(registry, "process.resident.memory.bytes", "Resident memory size in bytes.",
        metrics -> metrics.statField(24) * metrics.pageSize);
    gauge(registry, "process.virtual.memory.bytes", "Virtual memory size in bytes.", metrics -> metrics.statField(23));
    gauge(registry, "process.virtual.memory.max.bytes", "Maximum amount of virtual memory available in bytes.",
        metrics -> metrics.limit("Max address space"));
    gauge(registry, "process.open.fds", "Number of open file descriptors.", ProcessMetrics::openFds);
    gauge(registry, "process.max.fds", "Maximum number of open file descriptors.",
        metrics -> metrics.limit("Max open files"));
    if (Files.isReadable(proc.resolve("net/netstat"))) {
      FunctionCounter.builder("process.network.receive.bytes", this, metrics -> metrics.ipExt("InOctets"))
          .description("Number of bytes received by the process over the network.").register(registry);
      FunctionCounter.builder("process.network.transmit.bytes", this, metrics -> metrics.ipExt("OutOctets"))
          .description("Number of bytes sent by the process over the network.").register(registry);
    }
  }

  private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<ProcessMetrics> value) {
    Gauge.builder(name, this, value).strongReference(true).description(description).register(registry);
  }

  /**
   * Field {@code number} of {@code stat}, numbered as proc(5) does from 1 (the pid), found after the command name,
   * which may hold spaces and parentheses; NaN if unreadable.
   */
  double statField(int number) {
    try {
      String stat = Files.readString(proc.resolve("stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      return Double.parseDouble(fields[number - 3]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** The soft limit of the {@code limits} line {@code name}. */
  double limit(String name) {
    try {
      for (String line : Files.readAllLines(proc.resolve("limits"))) {
        if (line.startsWith(name)) {
          String soft = line.substring(name.length()).trim().split("\\s+")[0];
          return "unlimited".equals(soft) ? UNLIMITED : Double.parseDouble(soft);
        }
      }
      return Double.NaN;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  double openFds() {
    try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
      return fds.count();
    } catch (IOException | UncheckedIOException e) {
      return Double.NaN;
    }
  }

  /** The {@code IpExt} counter {@code name} of {@code net/netstat}: a header line of names, then one of values. */
  double ipExt(String name) {
    try {
      List<String> lines = Files.readAllLines(proc.resolve("net/netstat"));
      for (int i = 0; i + 1 < lines.size(); i++) {
        if (lines.get(i).startsWith("IpExt:") && lines.get(i + 1).startsWith("IpExt:")) {
          List<String> names = List.of(lines.get(i).split("\\s+"));
          int column = names.indexOf(name);
          return column < 0 ? Double.NaN : Double.parseDouble(lines.get(i + 1).split("\\s+")[column]);
        }
      }
      return Double.NaN;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }
}
