package io.kftrainer.executor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Commands that container images have and this machine runs differently, first on the pods' {@code PATH}
 * ({@code <run dir>/bin/image}, then the images' standard PATH). Each runs the machine's own command when it works
 * as the image's would:
 *
 * <ul>
 *   <li>{@code torchrun}: the machine's torchrun, through its own Python, with torch &lt; 2.0's
 *       {@code Std.from_str} repaired under Python 3.11 and later (Debian bookworm's python3-torch 1.13: Python
 *       3.11's {@code IntFlag} no longer iterates the zero and composite members, so the default
 *       {@code --redirects 0} and {@code --tee 0} parse to {@code None} and torchrun fails before starting a
 *       worker). The Kubeflow SDK's {@code CustomTrainer} runs {@code torchrun} on a torch runtime.</li>
 *   <li>{@code python}: the machine's {@code python} if it has one, else {@code python3} (Debian has no
 *       {@code python} without python-is-python3; images have both, and the Kubeflow SDK's commands call
 *       {@code python}).</li>
 * </ul>
 */
final class ImageCommands {

  /** The standard PATH of container images: what a command without a path finds. */
  static final String IMAGE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private static final String TORCHRUN = """
      #!/bin/sh
      # torchrun of the local executor: the machine's torchrun, through the Python its script names, with torch's
      # Std.from_str repaired where it fails (torch < 2.0 under Python 3.11: torchrun.py)
      real=$(PATH=%s command -v torchrun) || { echo "torchrun: command not found" >&2; exit 127; }
      IFS= read -r shebang < "$real" || true
      case "$shebang" in
        '#!'*python*) exec ${shebang#??} "$(dirname "$0")/torchrun.py" "$@" ;;
      esac
      exec "$real" "$@"
      """.formatted(IMAGE_PATH);

  private static final String TORCHRUN_PY = """
      # torchrun's entry point (torch.distributed.run.main), with torch < 2.0's Std.from_str repaired under Python
      # 3.11 and later, where IntFlag no longer iterates 0 and the composite members: from_str("0") returns None and
      # torchrun fails in to_map ('NoneType' object has no attribute 'get'). Other versions run unchanged.
      import re
      import sys

      try:
          from torch.distributed.elastic.multiprocessing import api as _api

          if _api.Std.from_str("0") is None:
              def _from_str(cls, vm):
                  if re.match(_api._VALUE_REGEX, vm):
                      return cls(int(vm))
                  if re.match(_api._MAPPING_REGEX, vm):
                      return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.split(","))}
                  raise ValueError(f"{vm} does not match: <{_api._VALUE_REGEX}> or <{_api._MAPPING_REGEX}>")

              _api.Std.from_str = classmethod(_from_str)
      except (ImportError, AttributeError):
          pass

      from torch.distributed.run import main

      sys.argv[0] = "torchrun"
      sys.exit(main())
      """;

  private static final String PYTHON = """
      #!/bin/sh
      # python of the local executor: the machine's python, else python3 (Debian has no python command)
      if real=$(PATH=%s command -v python); then
        exec "$real" "$@"
      fi
      exec python3 "$@"
      """.formatted(IMAGE_PATH);

  private ImageCommands() {
  }

  /** Writes the commands into {@code <run dir>/bin/image} and returns the pods' PATH: that directory first. */
  static String install(Path runDir) {
    Path dir = runDir.resolve("bin").resolve("image");
    try {
      Files.createDirectories(dir);
      write(dir.resolve("torchrun"), TORCHRUN, "rwxr-xr-x");
      write(dir.resolve("torchrun.py"), TORCHRUN_PY, "rw-r--r--");
      write(dir.resolve("python"), PYTHON, "rwxr-xr-x");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir + ":" + IMAGE_PATH;
  }

  private static void write(Path file, String content, String mode) throws IOException {
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
  }
}
