package io.kftrainer.differential;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A process's CPU time by kind of thread, from Linux's {@code /proc/<pid>/task/<tid>/stat}: for a JVM, how much of a
 * burst's CPU went to compiling (the JIT's compiler threads), to collecting (GC and VM threads) and to the work
 * itself. Read before and after the burst: a thread that ended in between is counted in neither, so what the
 * process's total has beyond the threads' is reported as such.
 */
final class ThreadCpu {

  /** Clock ticks per second of {@code stat}'s utime and stime ({@code USER_HZ}: 100 on every Linux ABI). */
  private static final double TICKS = 100.0;

  private ThreadCpu() {
  }

  /** CPU seconds by thread id, with the thread's name: {@code tid -> name\u0000seconds}. */
  static Map<String, Double> read(long pid) throws IOException {
    Map<String, Double> byThread = new TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (NoSuchFileException ended) {
          continue;
        }
        // "tid (name) state ppid ...": the name may hold spaces and parentheses, the fields follow its last ')'
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String[] fields = stat.substring(close + 2).split(" ");
        double seconds = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS;
        byThread.put(task.getFileName() + "\u0000" + stat.substring(open + 1, close), seconds);
      }
    }
    return byThread;
  }

  /** What the threads spent between {@code before} and {@code after}, by kind, with what ended threads spent. */
  static String between(Map<String, Double> before, Map<String, Double> after, double processTotal) {
    Map<String, Double> byKind = new LinkedHashMap<>();
    byKind.put("JIT compiler", 0.0);
    byKind.put("GC and VM", 0.0);
    byKind.put("the rest", 0.0);
    double counted = 0;
    for (Map.Entry<String, Double> thread : after.entrySet()) {
      double spent = thread.getValue() - before.getOrDefault(thread.getKey(), 0.0);
      counted += spent;
      byKind.merge(kind(thread.getKey().substring(thread.getKey().indexOf('\u0000') + 1)), spent, Double::sum);
    }
    // the kernel adjusts each thread's utime and stime to its runtime apart from the process's: under load the
    // threads' sum came out up to a tenth above the process's total, so the shares are of that sum
    double sum = counted;
    StringBuilder text = new StringBuilder();
    byKind.forEach((kind, seconds) -> text.append(String.format("%s%s %.1f s (%.0f%%)", text.isEmpty() ? "" : ", ",
        kind, seconds, sum > 0 ? 100 * seconds / sum : 0)));
    if (processTotal > counted) {
      text.append(String.format(", threads that ended %.1f s", processTotal - counted));
    }
    return text.toString();
  }

  /** HotSpot's thread names, as Linux keeps them (15 characters). */
  private static String kind(String name) {
    if (name.contains("CompilerThre")) {
      return "JIT compiler";
    }
    if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.equals("VM Thread")
        || name.startsWith("VM Periodic")) {
      return "GC and VM";
    }
    return "the rest";
  }
}
