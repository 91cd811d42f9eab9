package io.kftrainer.executor;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The paths the kubelet builds from object data (namespaces, pod and container names, volume names, claim names,
 * ConfigMap and Secret keys, {@code items[].path}, {@code subPath}), resolved inside the directory they belong to.
 * The API server refuses such names and paths already; this is the kubelet's own check (as its atomic writer and
 * subPath preparation do), which also catches a symbolic link a container left in a volume: a path that would leave
 * its directory, lexically or through a link, is a {@link ContainerEnv.ConfigError} and fails the pod.
 *
 * <p>Directories are created private to the user (0700) and files with the modes the pod asks for, as the kubelet's
 * atomic writer does ({@code defaultMode}, {@code items[].mode}; 0644 by default).
 */
final class PodPaths {

  /** The kubelet's default mode of projected files ({@code defaultMode}'s default). */
  static final int DEFAULT_FILE_MODE = 0644;
  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> PRIVATE_DIRECTORY = PosixFilePermissions.fromString("rwx------");

  private PodPaths() {
  }

  /**
   * {@code base/relative}, refused when it would leave {@code base}: an absolute path, a {@code ..} element that
   * climbs out, or an existing symbolic link on the way that points outside. {@code what} names the field.
   */
  static Path within(Path base, String relative, String what) {
    if (relative == null || relative.isEmpty() || relative.startsWith("/") || relative.indexOf('\0') >= 0) {
      throw new ContainerEnv.ConfigError(what + " " + quote(relative) + ": must be a relative path inside "
          + "its directory");
    }
    Path root = base.toAbsolutePath().normalize();
    Path resolved = root.resolve(relative).normalize();
    if (!resolved.startsWith(root)) {
      throw new ContainerEnv.ConfigError(what + " " + quote(relative) + ": would leave its directory");
    }
    try {
      Path realRoot = Files.exists(root) ? root.toRealPath() : root;
      for (Path step = root; !step.equals(resolved); ) {
        step = step.resolve(resolved.getName(step.getNameCount()));
        if (Files.isSymbolicLink(step) && !step.toRealPath().startsWith(realRoot)) {
          throw new ContainerEnv.ConfigError(what + " " + quote(relative) + ": a symbolic link leads out of "
              + "its directory");
        }
        if (!Files.exists(step, LinkOption.NOFOLLOW_LINKS)) {
          break;
        }
      }
    } catch (IOException e) {
      throw new ContainerEnv.ConfigError(what + " " + quote(relative) + ": " + e.getMessage());
    }
    return resolved;
  }

  /** Creates {@code dir} and its missing parents with mode 0700. */
  static Path createPrivateDirectories(Path dir) throws IOException {
    if (!POSIX) {
      return Files.createDirectories(dir);
    }
    if (Files.isDirectory(dir)) {
      return dir;
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      createPrivateDirectories(parent);
    }
    try {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // created concurrently
    }
    return dir;
  }

  /** Makes an existing directory private to the user (0700). */
  static void makePrivate(Path dir) throws IOException {
    if (POSIX) {
      Files.setPosixFilePermissions(dir, PRIVATE_DIRECTORY);
    }
  }

  /** Writes {@code data} to {@code file} with {@code mode} (e.g. 0644), creating private parent directories. */
  static void write(Path file, byte[] data, int mode) throws IOException {
    createPrivateDirectories(file.getParent());
    Files.write(file, data, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    if (POSIX) {
      Files.setPosixFilePermissions(file, permissions(mode));
    }
  }

  static Set<PosixFilePermission> permissions(int mode) {
    StringBuilder text = new StringBuilder();
    String letters = "rwxrwxrwx";
    for (int bit = 8; bit >= 0; bit--) {
      text.append((mode & (1 << bit)) != 0 ? letters.charAt(8 - bit) : '-');
    }
    return PosixFilePermissions.fromString(text.toString());
  }

  private static String quote(String value) {
    return "\"" + value + "\"";
  }
}
