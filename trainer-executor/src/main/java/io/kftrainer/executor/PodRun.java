package io.kftrainer.executor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The processes of one pod: init containers one after the other, then every container at once, each contained as
 * {@link Containment} says (a container is all its descendants) with stdout and stderr in
 * {@code logs/<container>.log}. A container's end, reported in its status, comes only once all its processes are
 * gone, so nothing replaces a pod while the old one's processes live. {@link #kill} ends every container. Restart policy {@code OnFailure} restarts a failed container after a back-off of 1, 2, 4... s
 * (at most 30 s; a node's kubelet starts at 10 s). State is read by the kubelet's thread, written by this run's
 * threads: every change calls {@code onChange}.
 */
final class PodRun {

  /** What the kubelet knows to start one container. */
  record Launch(Container container, List<String> argv, Map<String, String> env, Path workingDir) {
  }

  /** The observed state of one container. */
  static final class State {
    final String name;
    final boolean init;
    volatile Instant startedAt;
    volatile Instant finishedAt;
    volatile Integer exitCode;
    volatile String reason;
    volatile String message;
    volatile int restartCount;
    /** Set while a failed container waits out its back-off before a restart ({@code CrashLoopBackOff}). */
    volatile String backOff;
    /** The end of the previous run of a restarted container: {@code lastState}. */
    volatile ContainerState lastTerminated;
    volatile Process process;
    volatile Containment.Container contained;

    State(String name, boolean init) {
      this.name = name;
      this.init = init;
    }

    boolean running() {
      return process != null && exitCode == null;
    }

    /** Ended for good: exited and not waiting to be restarted. */
    boolean ended() {
      return exitCode != null && backOff == null;
    }

    ContainerState terminated() {
      return new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode).withReason(reason)
          .withMessage(message).withStartedAt(startedAt == null ? null : startedAt.toString())
          .withFinishedAt(finishedAt.toString()).endTerminated().build();
    }

    ContainerStatus status(String image) {
      ContainerState state;
      ContainerState last = lastTerminated;
      if (backOff != null) {
        // as the kubelet shows a container between a failure and its restart
        last = terminated();
        state = new ContainerStateBuilder().withNewWaiting().withReason("CrashLoopBackOff").withMessage(backOff)
            .endWaiting().build();
      } else if (exitCode != null) {
        state = terminated();
      } else if (process != null) {
        state = new ContainerStateBuilder().withNewRunning().withStartedAt(startedAt.toString()).endRunning().build();
      } else {
        state = new ContainerStateBuilder().withNewWaiting().withReason(init ? "PodInitializing" : "ContainerCreating")
            .endWaiting().build();
      }
      return new ContainerStatusBuilder().withName(name).withImage(image).withImageID("")
          .withReady(running() && !init).withStarted(process != null && exitCode == null)
          .withRestartCount(restartCount).withState(state).withLastState(last).build();
    }
  }

  private static final int LAST_LINES = 20;
  private static final int MAX_MESSAGE = 2048;

  private final Containment containment;
  private final LogClock logClock;
  private final String podKey;
  private final Path logDir;
  private final boolean restartOnFailure;
  private final Runnable onChange;
  private final Consumer<String> events;
  private final Map<String, State> states = new LinkedHashMap<>();
  private volatile boolean killed;
  private volatile String failedToStart;
  /** Succeeded or Failed once the pod has ended: a pod's end is final, whatever its processes do after. */
  private volatile String finalPhase;
  /** The GPUs of each container, as the node allocated them. */
  volatile Map<String, List<Gpu>> gpus = Map.of();
  volatile String podUid;
  volatile String podIp;
  volatile String group;
  volatile String lineage;
  /** Set by the kubelet's thread once it has seen the pod finish. */
  boolean finishSeen;
  /** Set by the kubelet's thread once the API has the pod bound to the node. */
  boolean bound;
  volatile Instant startTime;

  PodRun(Containment containment, LogClock logClock, String podKey, Path logDir, List<String> initNames,
      List<String> names, boolean restartOnFailure, Runnable onChange, Consumer<String> events) {
    this.containment = containment;
    this.logClock = logClock;
    this.podKey = podKey;
    this.logDir = logDir;
    this.restartOnFailure = restartOnFailure;
    this.onChange = onChange;
    this.events = events;
    initNames.forEach(n -> states.put(n, new State(n, true)));
    names.forEach(n -> states.put(n, new State(n, false)));
  }

  /** Fails the pod before any container starts (a volume or env source that does not exist). */
  void failedToStart(String message) {
    failedToStart = message;
  }

  /** Fails the pod before any container starts, each container terminated with {@code reason} (128). */
  void failBeforeStart(String reason, String message) {
    failedToStart = message;
    for (State state : states.values()) {
      state.exitCode = 128;
      state.reason = reason;
      state.message = message;
      state.finishedAt = Instant.now();
    }
  }

  String failure() {
    return failedToStart;
  }

  Map<String, State> states() {
    return states;
  }

  boolean isRunning(String container) {
    State state = states.get(container);
    return state != null && !killed && (state.running() || (state.exitCode == null && !finished()));
  }

  /**
   * Pod phase: Pending (init or waiting), Running, Succeeded or Failed. A container waiting to be restarted
   * ({@code OnFailure}) keeps its pod Running (Pending in an init container), as on a node; Succeeded and Failed are
   * final.
   */
  String phase() {
    String phase = finalPhase;
    if (phase != null) {
      return phase;
    }
    phase = currentPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      finalPhase = phase;
    }
    return phase;
  }

  private String currentPhase() {
    if (failedToStart != null) {
      return "Failed";
    }
    List<State> main = states.values().stream().filter(s -> !s.init).toList();
    if (main.stream().allMatch(State::ended)) {
      return main.stream().allMatch(s -> s.exitCode == 0) ? "Succeeded" : "Failed";
    }
    if (states.values().stream().anyMatch(s -> s.init && s.ended() && s.exitCode != 0) && !restartOnFailure) {
      return "Failed";
    }
    // Running once its containers have started: one that waits to be restarted, or is restarting, keeps it so
    return main.stream().anyMatch(s -> s.process != null || s.startedAt != null || s.exitCode != null
        || s.restartCount > 0) ? "Running" : "Pending";
  }

  /** Nothing has happened yet: no container started or ended, the pod did not fail; its volumes are being made. */
  boolean starting() {
    return failedToStart == null && states.values().stream()
        .allMatch(s -> s.startedAt == null && s.exitCode == null && s.restartCount == 0);
  }

  boolean finished() {
    String phase = phase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** Runs the pod on a thread of its own; {@code launches} are built lazily, per container, in order. */
  void start(java.util.function.Function<String, Launch> launches) {
    Thread thread = new Thread(() -> run(launches), "pod-" + podKey);
    thread.setDaemon(true);
    thread.start();
  }

  private void run(java.util.function.Function<String, Launch> launches) {
    try {
      Files.createDirectories(logDir);
      for (State state : states.values()) {
        if (state.init && !killed) {
          if (runToEnd(state, launches.apply(state.name)) != 0) {
            // an init container that fails, fails the pod (restartPolicy Never) or is retried (OnFailure)
            markRemainingNotStarted();
            return;
          }
        }
      }
      List<Thread> threads = new ArrayList<>();
      for (State state : states.values()) {
        if (!state.init && !killed) {
          Launch launch = launches.apply(state.name);
          Thread t = new Thread(() -> runToEnd(state, launch), "container-" + podKey + "-" + state.name);
          t.setDaemon(true);
          t.start();
          threads.add(t);
        }
      }
      for (Thread t : threads) {
        t.join();
      }
    } catch (ContainerEnv.ConfigError e) {
      failedToStart = e.getMessage();
      for (State s : states.values()) {
        if (s.exitCode == null) {
          s.exitCode = 128;
          s.reason = "CreateContainerConfigError";
          s.message = e.getMessage();
          s.finishedAt = Instant.now();
        }
      }
      events.accept("Warning Failed Error: " + e.getMessage());
      onChange.run();
    } catch (IOException e) {
      failedToStart = e.toString();
      onChange.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void markRemainingNotStarted() {
    onChange.run();
  }

  private int runToEnd(State state, Launch launch) {
    while (true) {
      int code = runOnce(state, launch);
      if (code == 0 || !restartOnFailure || killed) {
        return code;
      }
      long backoff = backOffMillis(state);
      events.accept("Warning BackOff Back-off " + backoff / 1000 + "s restarting failed container " + state.name);
      try {
        synchronized (this) {
          long deadline = System.currentTimeMillis() + backoff;
          // woken by kill: a pod being stopped ends its back-off at once
          while (!killed && System.currentTimeMillis() < deadline) {
            wait(Math.max(1, deadline - System.currentTimeMillis()));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        state.backOff = null;
        return code;
      }
      if (killed) {
        state.backOff = null;
        return code;
      }
      try {
        ContainerLog.of(logDir, state.name, false).rotate(); // kubectl logs --previous
      } catch (IOException e) {
        events.accept("Warning Failed Cannot keep the previous log of container " + state.name + ": " + e);
      }
      state.lastTerminated = state.terminated();
      state.restartCount++;
      state.process = null;
      state.contained = null;
      state.exitCode = null;
      state.backOff = null; // after the exit code: the container is never seen ended for good in between
      onChange.run();
    }
  }

  static long backOffMillis(State state) {
    return Math.min(30_000L, 1000L << Math.min(state.restartCount, 5));
  }

  /** Why a container without {@code command} cannot run here. */
  static String noEntrypoint(Container container) {
    return "the local executor runs no image entrypoint: container \"" + container.getName() + "\" of image \""
        + container.getImage() + "\" needs a command";
  }

  private int runOnce(State state, Launch launch) {
    ContainerLog log = ContainerLog.of(logDir, state.name, false);
    if (launch.argv().isEmpty()) {
      finish(state, 128, "StartError", noEntrypoint(launch.container()));
      events.accept("Warning Failed Error: " + state.message);
      return 128;
    }
    ProcessBuilder builder = new ProcessBuilder(containment.command(launch.argv(), launch.workingDir()))
        .directory(launch.workingDir().toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.file.toFile()));
    builder.environment().clear();
    builder.environment().putAll(launch.env());
    try {
      Files.createDirectories(launch.workingDir());
      synchronized (this) {
        if (killed) {
          return 137;
        }
        logClock.watch(log);
        state.startedAt = Instant.now();
        state.process = builder.start();
        state.contained = containment.started(state.process);
      }
    } catch (IOException e) {
      finish(state, 128, "StartError", e.getMessage());
      events.accept("Warning Failed Error: " + e.getMessage());
      return 128;
    }
    events.accept("Normal Started Started container " + state.name);
    onChange.run();
    int code;
    try {
      code = state.process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      code = 137;
    }
    state.contained.reap(); // whatever the main process started ends with it, as a cgroup's processes do
    logClock.forget(log);
    // a process killed by a signal reports 128 + signal, as a container runtime does
    boolean ok = code == 0;
    finish(state, code, ok ? "Completed" : "Error", ok ? null : ContainerLog.tail(log.file, LAST_LINES,
        MAX_MESSAGE));
    if (!ok && !killed) {
      events.accept("Warning Failed Container " + state.name + " exited with code " + code);
    }
    return code;
  }

  private void finish(State state, int code, String reason, String message) {
    if (code != 0 && restartOnFailure && !killed) {
      // set before the exit code is seen, so that the pod is never Failed between a failure and its restart
      state.backOff = "back-off " + backOffMillis(state) / 1000 + "s restarting failed container=" + state.name
          + " pod=" + podKey.substring(podKey.indexOf('/') + 1);
    }
    state.finishedAt = Instant.now();
    state.reason = reason;
    state.message = message;
    state.exitCode = code;
    onChange.run();
  }

  /** Ends every container of the pod: SIGTERM, then SIGKILL after {@code graceMillis}; returns once all are gone. */
  void kill(long graceMillis) {
    terminate();
    awaitExit(System.currentTimeMillis() + graceMillis);
    killNow();
  }

  /** SIGTERM to every process of the pod; no container starts after this. */
  void terminate() {
    synchronized (this) {
      killed = true;
      notifyAll();
    }
    states.values().stream().map(s -> s.contained).filter(c -> c != null).forEach(Containment.Container::terminate);
  }

  /** Waits until every container's main process has exited, or the deadline. */
  void awaitExit(long deadlineMillis) {
    for (State state : states.values()) {
      Process p = state.process;
      try {
        if (p != null) {
          p.waitFor(Math.max(1, deadlineMillis - System.currentTimeMillis()),
              java.util.concurrent.TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** SIGKILL to every process of the pod; returns once they are gone. */
  void killNow() {
    synchronized (this) {
      killed = true;
      notifyAll();
    }
    states.values().stream().map(s -> s.contained).filter(c -> c != null).forEach(Containment.Container::kill);
  }
}
