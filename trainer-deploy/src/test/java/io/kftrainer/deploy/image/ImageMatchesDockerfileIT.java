package io.kftrainer.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.deploy.Deploy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image the build makes without Docker and the repository's Dockerfile describe the same container: user,
 * ports, entrypoint, command, working directory, JAVA_TOOL_OPTIONS, and the paths they name (the jar, the
 * class-data archive, the plugin directory). A change to one that the other does not follow fails here.
 */
class ImageMatchesDockerfileIT {

  private static Dockerfile dockerfile;
  private static ImageConfig image;
  private static Path root;

  @BeforeAll
  static void read() throws IOException {
    root = Deploy.workDir("image-vs-dockerfile").resolve("rootfs");
    image = Deploy.unpackedImage(root).config();
    dockerfile = Dockerfile.read(Deploy.projectDir().resolve("Dockerfile"));
  }

  @Test
  void runsAsTheSameUser() throws IOException {
    assertThat(image.user()).isEqualTo(dockerfile.user()).isEqualTo("65532:65532");
    assertThat(Files.readAllLines(root.resolve("etc/passwd"))).anyMatch(line -> line.startsWith("nonroot:x:65532:65532:"));
  }

  @Test
  void exposesTheSamePorts() {
    assertThat(image.exposedPorts()).containsExactlyInAnyOrderElementsOf(dockerfile.exposedPorts())
        .contains("9443/tcp", "8443/tcp", "8081/tcp");
  }

  @Test
  void startsTheSameCommand() {
    assertThat(image.entrypoint()).isEqualTo(dockerfile.entrypoint());
    assertThat(image.cmd()).isEqualTo(dockerfile.cmd()).containsExactly("run");
    assertThat(image.workingDir()).isEqualTo(dockerfile.workingDir());
  }

  @Test
  void setsTheSameJavaOptions() {
    assertThat(image.env("JAVA_TOOL_OPTIONS")).contains(dockerfile.env().get("JAVA_TOOL_OPTIONS"));
  }

  @Test
  void holdsThePathsItNames() {
    // the jar of the entrypoint, the archive of JAVA_TOOL_OPTIONS, both root's and readable by all
    Path jar = root.resolve(image.entrypoint().get(image.entrypoint().size() - 1).substring(1));
    assertThat(jar).isRegularFile();
    Matcher archive = Pattern.compile("-XX:SharedArchiveFile=(\\S+)").matcher(image.env("JAVA_TOOL_OPTIONS")
        .orElseThrow());
    assertThat(archive.find()).isTrue();
    Path jsa = root.resolve(archive.group(1).substring(1));
    assertThat(jsa).isRegularFile();
    for (Path file : List.of(jar, jsa)) {
      assertThat(permissions(file)).contains(PosixFilePermission.OTHERS_READ)
          .doesNotContain(PosixFilePermission.OTHERS_WRITE, PosixFilePermission.GROUP_WRITE);
    }
    // the plugin directory the Dockerfile creates, where the Deployment mounts third-party jars
    assertThat(dockerfile.runs()).anyMatch(run -> run.contains("/opt/trainer/plugins"));
    assertThat(root.resolve("opt/trainer/plugins")).isDirectory();
  }

  private static Set<PosixFilePermission> permissions(Path file) {
    try {
      return Files.getPosixFilePermissions(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
