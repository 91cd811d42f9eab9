package io.kftrainer.benchmarks.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What Linux's {@code /proc} says about this machine and its processes. */
final class Proc {

  /** USER_HZ: the kernel's clock ticks per second in {@code /proc/<pid>/stat}, 100 on Linux x86 and arm. */
  private static final long TICKS_PER_SECOND = 100;

  private Proc() {
  }

  /** User + system CPU milliseconds of process {@code pid} so far. */
  static long cpuMillis(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000 / TICKS_PER_SECOND;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The 1-, 5- and 15-minute load averages, as {@code uptime} prints them. */
  static String load() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "?";
    }
  }

  /** The 1-minute load average. */
  static double load1() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0]);
    } catch (IOException | NumberFormatException e) {
      return Double.NaN;
    }
  }
}
