package io.kftrainer.cli.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The runtimes this project ships, read as a user's file would be: every field is known to the model. */
class ShippedRuntimeFieldsTest {

  private static final Path SHIPPED_SOURCES = Path.of("../manifests/runtimes");

  @Test
  void everyFieldOfTheShippedRuntimesIsKnownToTheModel() throws IOException {
    Manifest index = ManifestReader.read(Files.readString(SHIPPED_SOURCES.resolve("kustomization.yaml")),
        "kustomization.yaml").get(0);
    for (var resource : index.tree().path("resources")) {
      String file = resource.asText();
      for (Manifest manifest : ManifestReader.read(Files.readString(SHIPPED_SOURCES.resolve(file)), file)) {
        manifest.check();
        assertThat(manifest.unknownFields(manifest.as(ClusterTrainingRuntime.class))).as(file).isEmpty();
      }
    }
  }
}
