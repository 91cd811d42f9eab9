package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kubelet's own confinement of what object data names: keys, {@code items[].path}, {@code subPath}, volume and
 * claim names, and links a container left behind resolve inside their directory or fail the pod; directories are
 * private (0700) and files get the pod's modes. The API server refuses such objects already: these are the checks
 * behind it, so the data is handed to the kubelet's code directly.
 */
class ConfinementTest {

  @TempDir
  Path root;

  private Path runDir() {
    return root.resolve("run");
  }

  private Path podDir() {
    return runDir().resolve("team/pods/p");
  }

  @Test
  void aConfigMapKeyThatClimbsOutIsRefusedAndWritesNothing() throws Exception {
    Path dir = PodPaths.createPrivateDirectories(podDir().resolve("volumes/cm"));

    assertThatThrownBy(() -> PodVolumes.write(dir, Map.of("../../x", bytes("owned")), null, null))
        .isInstanceOf(ContainerEnv.ConfigError.class).hasMessageContaining("would leave its directory");
    assertThat(podDir().resolve("x")).doesNotExist();
  }

  @Test
  void anItemPathWithDotDotIsRefused() throws Exception {
    Path dir = PodPaths.createPrivateDirectories(podDir().resolve("volumes/secret"));
    List<KeyToPath> items = List.of(new KeyToPath("k", null, "a/../../../b"));

    assertThatThrownBy(() -> PodVolumes.write(dir, Map.of("k", bytes("v")), items, null))
        .isInstanceOf(ContainerEnv.ConfigError.class);
    assertThat(podDir().resolve("b")).doesNotExist();
    assertThatThrownBy(() -> PodVolumes.write(dir, Map.of("k", bytes("v")),
        List.of(new KeyToPath("k", null, "/etc/x")), null)).isInstanceOf(ContainerEnv.ConfigError.class);
  }

  @Test
  void volumesNamedWithDotDotAndClaimsThatClimbOutFailThePodsVolumes() {
    Pod emptyDir = pod().editSpec().addNewVolume().withName("..").withNewEmptyDir().endEmptyDir().endVolume()
        .endSpec().build();
    Pod claim = pod().editSpec().addNewVolume().withName("data").withNewPersistentVolumeClaim()
        .withClaimName("../../../escape").endPersistentVolumeClaim().endVolume().endSpec().build();

    assertThatThrownBy(() -> PodVolumes.create(null, emptyDir, runDir(), podDir()))
        .isInstanceOf(ContainerEnv.ConfigError.class).hasMessageContaining("volume name");
    assertThatThrownBy(() -> PodVolumes.create(null, claim, runDir(), podDir()))
        .isInstanceOf(ContainerEnv.ConfigError.class).hasMessageContaining("claimName");
    assertThat(root.resolve("escape")).doesNotExist();
  }

  @Test
  void aSubPathThatClimbsOutIsAContainerConfigError() throws Exception {
    Pod pod = pod().editSpec().addNewVolume().withName("scratch").withNewEmptyDir().endEmptyDir().endVolume()
        .endSpec().build();
    PodVolumes volumes = PodVolumes.create(null, pod, runDir(), podDir());

    assertThatThrownBy(() -> volumes.mounts(container("../../..")))
        .isInstanceOf(ContainerEnv.ConfigError.class).hasMessageContaining("subPath");
    assertThat(volumes.mounts(container("inside/dir"))).containsEntry("/mnt",
        podDir().resolve("volumes/scratch/inside/dir").toAbsolutePath().toString());
  }

  @Test
  void aSymbolicLinkLeftInAVolumeDoesNotLeadASubPathOut() throws Exception {
    Pod pod = pod().editSpec().addNewVolume().withName("scratch").withNewEmptyDir().endEmptyDir().endVolume()
        .endSpec().build();
    PodVolumes volumes = PodVolumes.create(null, pod, runDir(), podDir());
    Files.createDirectories(root.resolve("outside"));
    Files.createSymbolicLink(podDir().resolve("volumes/scratch/link"), root.resolve("outside"));

    assertThatThrownBy(() -> volumes.mounts(container("link/secret")))
        .isInstanceOf(ContainerEnv.ConfigError.class).hasMessageContaining("symbolic link");
  }

  @Test
  void filesGetTheirItemModeOrTheDefaultModeOr0644AndDirectoriesArePrivate() throws Exception {
    Path dir = PodPaths.createPrivateDirectories(podDir().resolve("volumes/ssh"));

    PodVolumes.write(dir, Map.of("id_rsa", bytes("key"), "id_rsa.pub", bytes("pub")),
        List.of(new KeyToPath("id_rsa", 0600, "id_rsa"), new KeyToPath("id_rsa.pub", null, "keys/id_rsa.pub")),
        0440);
    PodVolumes.write(dir, Map.of("plain", bytes("p")), null, null);

    assertThat(Files.getPosixFilePermissions(dir.resolve("id_rsa"))).isEqualTo(perms("rw-------"));
    assertThat(Files.getPosixFilePermissions(dir.resolve("keys/id_rsa.pub"))).isEqualTo(perms("r--r-----"));
    assertThat(Files.getPosixFilePermissions(dir.resolve("plain"))).isEqualTo(perms("rw-r--r--"));
    for (Path private_ : List.of(runDir(), runDir().resolve("team"), podDir(), dir, dir.resolve("keys"))) {
      assertThat(Files.getPosixFilePermissions(private_)).as(private_.toString()).isEqualTo(perms("rwx------"));
    }
  }

  @Test
  void theRunDirectoryIsMadePrivateAtStart() throws Exception {
    Files.createDirectories(runDir());
    Files.setPosixFilePermissions(runDir(), perms("rwxr-xr-x"));
    try (EmbeddedApiServer server = EmbeddedApiServer.start();
        java.io.InputStream crd = getClass().getClassLoader()
            .getResourceAsStream("META-INF/fabric8/jobsets.jobset.x-k8s.io-v1.yml")) {
      server.installCrds(crd);
      try (LocalExecutor executor = new LocalExecutor(server.newClient(),
            new LocalExecutor.Options(runDir(), 1, line -> { })).start()) {
        assertThat(Files.getPosixFilePermissions(runDir())).isEqualTo(perms("rwx------"));
        assertThat(executor.openLog("team", "p", "../../../../etc/passwd", false, null)).isEmpty();
      }
    }
  }

  private static PodBuilder pod() {
    return new PodBuilder().withNewMetadata().withName("p").withNamespace("team").endMetadata().withNewSpec()
        .endSpec();
  }

  private static Container container(String subPath) {
    return new ContainerBuilder().withName("c").addNewVolumeMount().withName("scratch").withMountPath("/mnt")
        .withSubPath(subPath).endVolumeMount().build();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static java.util.Set<java.nio.file.attribute.PosixFilePermission> perms(String text) {
    return PosixFilePermissions.fromString(text);
  }
}
