package io.kftrainer.deploy.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * An unpacked image started as a kubelet starts its container, with bubblewrap (Debian's {@code bubblewrap})
 * where no container runtime can run: the image's entrypoint followed by the pod's {@code args} (or the image's
 * command), as the image's user (user namespace), as process 1 of its own PID namespace, with the image's
 * environment plus the pod's, in the image's working directory, on a read-only root ({@code readOnlyRootFilesystem})
 * with nothing writable but the mounts given here: {@code emptyDir}s (tmpfs) and writable host directories. The
 * network is the host's, as with {@code hostNetwork}: the container reaches an API server on 127.0.0.1 and its
 * ports are the host's.
 *
 * <p>Mount points the image lacks are created in the unpacked root first, as runc creates them before it makes the
 * root read-only.
 */
public final class BwrapContainer implements AutoCloseable {

  private static final String BWRAP = "bwrap";

  private final Process bwrap;
  private final List<String> command;
  private final Path log;

  private BwrapContainer(Process bwrap, List<String> command, Path log) {
    this.bwrap = bwrap;
    this.command = command;
    this.log = log;
  }

  /** Whether bubblewrap is installed and can make the namespaces it needs here. */
  public static boolean available() {
    try {
      Process probe = new ProcessBuilder(BWRAP, "--ro-bind", "/", "/", "--unshare-user", "--unshare-pid",
          "--as-pid-1", "--die-with-parent", "true").redirectErrorStream(true).start();
      probe.getInputStream().readAllBytes();
      return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Why {@link #available()} is false, for a skipped test or a failed build. */
  public static String unavailableReason() {
    return "bubblewrap (" + BWRAP + ") cannot run here: install it (apt-get install bubblewrap); user and PID "
        + "namespaces must be allowed";
  }

  public static Builder builder(Path root, ImageConfig image) {
    return new Builder(root, image);
  }

  /** The container's first process (the entrypoint), which a kubelet signals. */
  public Optional<ProcessHandle> mainProcess() {
    return bwrap.toHandle().children().findFirst();
  }

  public boolean isAlive() {
    return bwrap.isAlive();
  }

  /** Sends SIGTERM to the container's first process, as a kubelet does to stop a pod. */
  public void terminate() {
    mainProcess().ifPresent(ProcessHandle::destroy);
  }

  /** Waits for the container to exit; its exit code, or empty if it still runs after {@code timeout}. */
  public Optional<Integer> awaitExit(Duration timeout) throws InterruptedException {
    return bwrap.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? Optional.of(bwrap.exitValue())
        : Optional.empty();
  }

  /** The whole bwrap command line, for error messages. */
  public List<String> command() {
    return command;
  }

  /** Where the container's stdout and stderr go. */
  public Path log() {
    return log;
  }

  /** Kills whatever still runs (SIGKILL), as a kubelet does after the grace period. */
  @Override
  public void close() throws InterruptedException {
    if (bwrap.isAlive()) {
      bwrap.descendants().forEach(ProcessHandle::destroyForcibly);
      bwrap.destroyForcibly();
      bwrap.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** A container's pod-side settings. */
  public static final class Builder {
    private final Path root;
    private final ImageConfig image;
    private List<String> args;
    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<String> mounts = new ArrayList<>();
    private String hostname = "trainer-operator";

    private Builder(Path root, ImageConfig image) {
      this.root = Objects.requireNonNull(root, "root");
      this.image = Objects.requireNonNull(image, "image");
    }

    /** The pod's {@code args}: replace the image's command, follow its entrypoint. */
    public Builder args(List<String> args) {
      this.args = List.copyOf(args);
      return this;
    }

    /** A pod {@code env} entry: added to the image's environment, or replacing the image's value. */
    public Builder env(String name, String value) {
      env.put(name, value);
      return this;
    }

    /** The pod's name, which the container sees as its host name (and {@code HOSTNAME}). */
    public Builder hostname(String hostname) {
      this.hostname = hostname;
      return this;
    }

    /** A host file or directory at {@code path}, read-only (a ConfigMap, Secret or read-only volume mount). */
    public Builder readOnly(Path host, String path) throws IOException {
      mountPoint(host, path);
      mounts.addAll(List.of("--ro-bind", host.toString(), path));
      return this;
    }

    /** A host directory at {@code path}, writable (a writable volume mount). */
    public Builder writable(Path host, String path) throws IOException {
      mountPoint(host, path);
      mounts.addAll(List.of("--bind", host.toString(), path));
      return this;
    }

    /** An empty writable directory at {@code path}, gone with the container (an {@code emptyDir} volume). */
    public Builder emptyDir(String path) throws IOException {
      Files.createDirectories(inRoot(path));
      mounts.addAll(List.of("--tmpfs", path));
      return this;
    }

    /** Starts the container; its stdout and stderr go to {@code log}. */
    public BwrapContainer start(Path log) throws IOException {
      List<String> command = new ArrayList<>(List.of(BWRAP, "--ro-bind", root.toString(), "/",
          "--proc", "/proc", "--dev", "/dev",
          "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
          "--as-pid-1", "--die-with-parent", "--new-session", "--hostname", hostname));
      int[] ids = ids(image.user());
      command.addAll(List.of("--uid", Integer.toString(ids[0]), "--gid", Integer.toString(ids[1])));
      command.addAll(mounts);
      if (!image.workingDir().isEmpty()) {
        command.addAll(List.of("--chdir", image.workingDir()));
      }
      command.add("--clearenv");
      Map<String, String> environment = new LinkedHashMap<>(image.envMap());
      environment.put("HOSTNAME", hostname);
      environment.putAll(env);
      environment.forEach((name, value) -> command.addAll(List.of("--setenv", name, value)));
      command.add("--");
      command.addAll(image.entrypoint());
      command.addAll(args != null ? args : image.cmd());
      Files.createDirectories(log.toAbsolutePath().getParent());
      Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new BwrapContainer(process, List.copyOf(command), log);
    }

    private void mountPoint(Path host, String path) throws IOException {
      Path target = inRoot(path);
      if (Files.isDirectory(host)) {
        Files.createDirectories(target);
      } else if (!Files.exists(target)) {
        Files.createDirectories(target.getParent());
        Files.createFile(target);
      }
    }

    private Path inRoot(String path) throws IOException {
      Path target = root.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
      if (!target.startsWith(root)) {
        throw new IOException(path + " is outside the container's root");
      }
      return target;
    }

    /** uid and gid of the image's {@code USER}: numbers, or a name of its {@code /etc/passwd} (root if unset). */
    private int[] ids(String user) throws IOException {
      if (user.isEmpty()) {
        return new int[] {0, 0};
      }
      String[] parts = user.split(":", 2);
      if (parts[0].chars().allMatch(Character::isDigit)) {
        int uid = Integer.parseInt(parts[0]);
        return new int[] {uid, parts.length > 1 ? Integer.parseInt(parts[1]) : uid};
      }
      for (String line : Files.readAllLines(inRoot("/etc/passwd"))) {
        String[] fields = line.split(":");
        if (fields.length > 3 && fields[0].equals(parts[0])) {
          return new int[] {Integer.parseInt(fields[2]), Integer.parseInt(fields[3])};
        }
      }
      throw new IOException("user " + parts[0] + " is not in the image's /etc/passwd");
    }
  }
}
