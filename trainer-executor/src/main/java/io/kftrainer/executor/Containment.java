package io.kftrainer.executor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What makes a container all of its descendants, as a cgroup does on a node: whatever the container's processes
 * start (ranks, {@code setsid} daemons, double forks) ends when its main process ends, when the kubelet kills it,
 * and when {@code local} exits or is killed.
 *
 * <p>{@link PidNamespace} is the real thing: bubblewrap ({@code bwrap --unshare-pid --die-with-parent}) starts each
 * container in a PID namespace of its own, with the host's root bound at {@code /} (same files, same network, same
 * users: no isolation beyond process lifetime). bwrap's own init is the namespace's pid 1 and reaps orphans; when the
 * main process exits, or bwrap's parent (the JVM) dies, that init dies and the kernel kills every process left in
 * the namespace. {@link ProcessGroup} is the fallback where bwrap is missing or refused: the container is the
 * process group and session {@code setsid} gives it, plus the descendants seen when it is killed. A process that
 * calls {@code setsid} itself and whose parent has already exited escapes it, and nothing ends the processes when
 * {@code local} is killed with SIGKILL.
 */
sealed interface Containment {

  Logger LOG = LoggerFactory.getLogger(Containment.class);

  /** How long the kubelet waits for a killed container's processes to be gone. */
  Duration REAP_TIMEOUT = Duration.ofSeconds(10);

  /** The command line that runs {@code argv} in {@code workingDir} as a contained process tree. */
  List<String> command(List<String> argv, Path workingDir);

  /** A handle on one started container, to end it. */
  Container started(Process process);

  /** One word for the banner and the docs. */
  String describe();

  /** The started processes of one container. */
  interface Container {
    /** SIGTERM to every process of the container (the main process may handle it and exit cleanly). */
    void terminate();

    /** SIGKILL to every process of the container; returns once they are gone (or after {@link #REAP_TIMEOUT}). */
    void kill();

    /** After the main process exited: returns once nothing it started is left. */
    void reap();
  }

  /** bubblewrap if it works here, else the process-group fallback (logged once, with the reason). */
  static Containment detect() {
    Optional<Path> bwrap = Stream.of("/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap").map(Path::of)
        .filter(Files::isExecutable).findFirst();
    if (bwrap.isEmpty()) {
      LOG.warn("bubblewrap (bwrap) is not installed: pods' processes are contained by process group only; a "
          + "daemon that calls setsid may outlive its pod, and SIGKILL of local leaves pods running "
          + "(apt-get install bubblewrap)");
      return new ProcessGroup();
    }
    PidNamespace namespace = new PidNamespace(bwrap.get());
    Optional<String> refusal = namespace.probe();
    if (refusal.isPresent()) {
      LOG.warn("bubblewrap cannot create a PID namespace here ({}): pods' processes are contained by process group "
          + "only; a daemon that calls setsid may outlive its pod, and SIGKILL of local leaves pods running",
          refusal.get());
      return new ProcessGroup();
    }
    return namespace;
  }

  /** Each container in a PID namespace of its own, through bubblewrap. */
  final class PidNamespace implements Containment {

    private final Path bwrap;

    PidNamespace(Path bwrap) {
      this.bwrap = bwrap;
    }

    @Override
    public List<String> command(List<String> argv, Path workingDir) {
      List<String> command = new ArrayList<>(List.of(bwrap.toString(),
          // the host's files at the same paths, devices included (/dev/shm for torch and MPI)
          "--dev-bind", "/", "/",
          // a /proc of the namespace: ps and pkill in a pod see the pod
          "--proc", "/proc",
          "--unshare-pid", "--die-with-parent",
          // no controlling terminal: Ctrl-C at local's terminal reaches local, which ends the pods itself
          "--new-session",
          "--chdir", workingDir.toString(), "--"));
      command.addAll(argv);
      return command;
    }

    @Override
    public Container started(Process process) {
      return new Container() {
        // bwrap's init, pid 1 of the namespace: once it is gone, so is every process of the namespace
        private volatile ProcessHandle init = awaitInit(process);

        @Override
        public void terminate() {
          // bwrap's init ignores SIGTERM; everything else gets it, as the old process group did
          processes(process).filter(p -> !p.equals(init)).toList().forEach(ProcessHandle::destroy);
        }

        @Override
        public void kill() {
          if (init == null) {
            init = process.children().findFirst().orElse(null);
          }
          if (init != null) {
            init.destroyForcibly(); // from the parent namespace SIGKILL reaches pid 1: the kernel kills the rest
          }
          process.destroyForcibly();
          reap();
        }

        @Override
        public void reap() {
          await(process.toHandle());
          if (init != null) {
            // bwrap exits as soon as its init reports the main process's status; the init itself dies just after
            // (die-with-parent), and only once the kernel has killed the namespace's other processes
            await(init);
          }
        }
      };
    }

    @Override
    public String describe() {
      return "a PID namespace per container (bubblewrap)";
    }

    Optional<String> probe() {
      try {
        Process probe = new ProcessBuilder(command(List.of("true"), Path.of("/"))).redirectErrorStream(true).start();
        if (!probe.waitFor(10, TimeUnit.SECONDS)) {
          probe.destroyForcibly();
          return Optional.of("no answer in 10 s");
        }
        String output = new String(probe.getInputStream().readAllBytes()).trim();
        return probe.exitValue() == 0 ? Optional.empty()
            : Optional.of("exit code " + probe.exitValue() + (output.isEmpty() ? "" : ": " + output));
      } catch (IOException e) {
        return Optional.of(e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.of("interrupted");
      }
    }

    /** bwrap forks its init at once; the command runs only after the init set up the mounts. */
    private static ProcessHandle awaitInit(Process process) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (process.isAlive() && System.nanoTime() < deadline) {
        Optional<ProcessHandle> child = process.children().findFirst();
        if (child.isPresent()) {
          return child.get();
        }
        sleep(1);
      }
      return null;
    }
  }

  /** The fallback: the container is the process group (and session) {@code setsid} makes. */
  final class ProcessGroup implements Containment {

    @Override
    public List<String> command(List<String> argv, Path workingDir) {
      List<String> command = new ArrayList<>();
      command.add("setsid");
      command.addAll(argv);
      return command;
    }

    @Override
    public Container started(Process process) {
      long group = process.pid(); // setsid made the process the leader of its own group and session
      return new Container() {
        // the descendants seen before any signal: once the main process dies, its orphans are no longer its
        // descendants, and those that called setsid are in no group of ours either
        private final java.util.Set<ProcessHandle> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public void terminate() {
          processes(process).forEach(seen::add);
          signalGroup(group, "TERM");
          seen.forEach(ProcessHandle::destroy);
        }

        @Override
        public void kill() {
          processes(process).forEach(seen::add);
          signalGroup(group, "KILL");
          seen.forEach(ProcessHandle::destroyForcibly);
          seen.forEach(Containment::await);
          reap();
        }

        @Override
        public void reap() {
          await(process.toHandle());
          // what the main process left in its group or session (daemons that did not call setsid themselves)
          long deadline = System.nanoTime() + REAP_TIMEOUT.toNanos();
          while (!members(group).isEmpty() && System.nanoTime() < deadline) {
            signalGroup(group, "KILL");
            members(group).forEach(ProcessHandle::destroyForcibly);
            sleep(20);
          }
        }
      };
    }

    @Override
    public String describe() {
      return "a process group per container (bubblewrap unavailable)";
    }

    private static void signalGroup(long group, String signal) {
      try {
        new ProcessBuilder("kill", "-" + signal, "--", "-" + group).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
      } catch (IOException e) {
        LOG.warn("cannot signal process group {}: {}", group, e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** Processes whose process group or session is {@code group} ({@code /proc/PID/stat} fields 5 and 6). */
    static List<ProcessHandle> members(long group) {
      List<ProcessHandle> members = new ArrayList<>();
      try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
        for (Path entry : (Iterable<Path>) entries::iterator) {
          String name = entry.getFileName().toString();
          if (!name.chars().allMatch(Character::isDigit)) {
            continue;
          }
          try {
            String stat = Files.readString(entry.resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields after the command: state, ppid, pgrp, session
            if (!fields[0].equals("Z") && (Long.parseLong(fields[2]) == group || Long.parseLong(fields[3]) == group)) {
              ProcessHandle.of(Long.parseLong(name)).ifPresent(members::add);
            }
          } catch (IOException | RuntimeException e) {
            // the process ended while we looked
          }
        }
      } catch (IOException e) {
        LOG.warn("cannot list /proc: {}", e.getMessage());
      }
      return members;
    }
  }

  private static Stream<ProcessHandle> processes(Process process) {
    return Stream.concat(Stream.of(process.toHandle()), process.descendants());
  }

  /** Waits for a process's end: polled every 10 ms (the JDK's onExit polls a non-child every 300 ms or more). */
  private static void await(ProcessHandle process) {
    long deadline = System.nanoTime() + REAP_TIMEOUT.toNanos();
    while (!ended(process)) {
      if (System.nanoTime() > deadline || Thread.currentThread().isInterrupted()) {
        LOG.warn("process {} still alive {} s after it was killed", process.pid(), REAP_TIMEOUT.toSeconds());
        return;
      }
      sleep(10);
    }
  }

  /**
   * Whether {@code process} has ended: it is gone, or it is a zombie that only waits to be reaped. bwrap's init is
   * not local's child: once bwrap has exited, the init is an orphan that the system's PID 1 reaps, when it does
   * (a sandbox's init reaped it 1 to 2 s late; a container's PID 1 may never reap), and the JDK counts it alive
   * until then. A pid namespace's init becomes a zombie only once every process of the namespace has been reaped.
   */
  static boolean ended(ProcessHandle process) {
    if (!process.isAlive()) {
      return true;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state == 'Z' || state == 'X';
    } catch (java.nio.file.NoSuchFileException e) {
      return Files.isDirectory(Path.of("/proc/self")); // gone meanwhile; without /proc, isAlive said it all
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
