package io.kftrainer.lab;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One component of the lab (etcd, kube-apiserver, ...) as a process whose output goes to a log file, and which
 * never outlives the JVM that started it, even when that JVM is killed: it is started by a small {@code sh} guard
 * that reads its standard input, which only this JVM holds open. When the JVM closes it ({@link #close()}) or dies,
 * the guard's watcher reads end-of-file and stops the component (SIGTERM, then SIGKILL after a grace period). The
 * JDK offers no parent-death signal, and {@code setpriv --pdeathsig} ties the child to the starting thread, not the
 * process.
 */
public final class LabProcess implements AutoCloseable {

  /** How long a component has between SIGTERM and SIGKILL. */
  private static final int GRACE_SECONDS = 5;

  /*
   * The guard: runs the component, and beside it a watcher that waits for end-of-file on the standard input, then
   * stops the component. The guard exits with the component's status, so isAlive() is the component's. (sh gives
   * an asynchronous command /dev/null as its standard input: the watcher reads the guard's through descriptor 3.)
   */
  private static final String GUARD = """
      exec 3<&0
      "$@" <&- 3<&- &
      child=$!
      (cat <&3 >/dev/null; kill -TERM "$child" 2>/dev/null; sleep %d; kill -KILL "$child" 2>/dev/null) &
      wait "$child"
      """.formatted(GRACE_SECONDS);

  private final String name;
  private final Process guard;
  private final OutputStream lifeline;
  private final Path log;

  private LabProcess(String name, Process guard, Path log) {
    this.name = name;
    this.guard = guard;
    this.lifeline = guard.getOutputStream();
    this.log = log;
  }

  /** Starts {@code command}, its stdout and stderr appended to {@code log}. */
  public static LabProcess start(String name, List<String> command, Path log) throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    List<String> guarded = new ArrayList<>(List.of("sh", "-c", GUARD, name));
    guarded.addAll(command);
    Process process = new ProcessBuilder(guarded).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    return new LabProcess(name, process, log);
  }

  public String name() {
    return name;
  }

  public Path log() {
    return log;
  }

  /** The guard's process (its children: the component and the watcher). */
  ProcessHandle guard() {
    return guard.toHandle();
  }

  /** The component's own process: the guard's child that runs {@code executable} (for its CPU time and memory). */
  public Optional<ProcessHandle> component(String executable) {
    return guard.children().filter(child -> child.info().command().map(c -> c.endsWith("/" + executable)
        || c.equals(executable)).orElse(false)).findFirst();
  }

  public boolean isAlive() {
    return guard.isAlive();
  }

  /** The last lines of the log, for an error message. */
  public String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Stops the component: SIGTERM, SIGKILL after the grace period; returns once it has exited. */
  @Override
  public void close() throws InterruptedException {
    List<ProcessHandle> descendants = guard.descendants().toList();
    try {
      lifeline.close();
    } catch (IOException e) {
      // the guard's watcher is gone already
    }
    if (!guard.waitFor(GRACE_SECONDS + 5L, TimeUnit.SECONDS)) {
      guard.destroyForcibly();
      guard.waitFor(10, TimeUnit.SECONDS);
    }
    descendants.forEach(ProcessHandle::destroyForcibly);
  }
}
