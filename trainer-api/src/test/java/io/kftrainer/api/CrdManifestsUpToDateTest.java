package io.kftrainer.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keeps the checked-in CRDs under {@code manifests/crds} identical to the ones the build generates from the model
 * (under {@code target/classes/META-INF/fabric8}), and keeps {@code manifests/crds/kustomization.yaml} listing them.
 *
 * <p>After changing the model, refresh the copies with
 * {@code ./mvnw -pl trainer-api verify -Dtrainer.updateCrds=true}: with that property this test writes the
 * files instead of comparing them. The JobSet CRD is not copied: clusters get it from the JobSet release.
 */
class CrdManifestsUpToDateTest {

  static final String REFRESH_COMMAND = "./mvnw -pl trainer-api verify -Dtrainer.updateCrds=true";

  private static final String HEADER =
      "# Generated from the trainer-api model by fabric8's CRD generator: do not edit.\n"
      + "# Refresh with: " + REFRESH_COMMAND + "\n";

  /** Generated file name → checked-in file name (upstream's naming). */
  private static final Map<String, String> CRDS = new LinkedHashMap<>();

  static {
    CRDS.put("clustertrainingruntimes.trainer.kubeflow.org-v1.yml",
        "trainer.kubeflow.org_clustertrainingruntimes.yaml");
    CRDS.put("optimizationjobs.trainer.kubeflow.org-v1.yml", "trainer.kubeflow.org_optimizationjobs.yaml");
    CRDS.put("trainingruntimes.trainer.kubeflow.org-v1.yml", "trainer.kubeflow.org_trainingruntimes.yaml");
    CRDS.put("trainjobs.trainer.kubeflow.org-v1.yml", "trainer.kubeflow.org_trainjobs.yaml");
  }

  @Test
  void checkedInCrdsMatchTheGeneratedOnes() throws IOException {
    Path generatedDir = directory("trainer.generatedCrdsDir", "target/classes/META-INF/fabric8");
    Path manifestsDir = directory("trainer.crdManifestsDir", "../manifests/crds");

    Map<String, String> expected = new LinkedHashMap<>();
    for (Map.Entry<String, String> crd : CRDS.entrySet()) {
      Path generated = generatedDir.resolve(crd.getKey());
      assertThat(generated).as("generated CRD (run the build through process-classes)").exists();
      expected.put(crd.getValue(), HEADER + Files.readString(generated, StandardCharsets.UTF_8));
    }
    expected.put("kustomization.yaml", kustomization());

    if (Boolean.getBoolean("trainer.updateCrds")) {
      Files.createDirectories(manifestsDir);
      for (Map.Entry<String, String> file : expected.entrySet()) {
        Files.writeString(manifestsDir.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
      }
      return;
    }

    List<String> stale = new ArrayList<>();
    for (Map.Entry<String, String> file : expected.entrySet()) {
      Path checkedIn = manifestsDir.resolve(file.getKey());
      if (!Files.exists(checkedIn)) {
        stale.add(file.getKey() + " is missing");
      } else {
        String actual = Files.readString(checkedIn, StandardCharsets.UTF_8);
        if (!actual.equals(file.getValue())) {
          stale.add(file.getKey() + " differs from the generated CRD, " + firstDifference(file.getValue(), actual));
        }
      }
    }
    if (!stale.isEmpty()) {
      fail("The CRDs in " + manifestsDir.normalize() + " are out of date with the trainer-api model:\n  "
          + String.join("\n  ", stale) + "\nRefresh them with: " + REFRESH_COMMAND);
    }
  }

  private static String kustomization() {
    StringBuilder sb = new StringBuilder(HEADER)
        .append("apiVersion: kustomize.config.k8s.io/v1beta1\n")
        .append("kind: Kustomization\n")
        .append("resources:\n");
    CRDS.values().forEach(name -> sb.append("- ").append(name).append('\n'));
    return sb.toString();
  }

  private static String firstDifference(String expected, String actual) {
    String[] e = expected.split("\n", -1);
    String[] a = actual.split("\n", -1);
    for (int i = 0; i < Math.max(e.length, a.length); i++) {
      String el = i < e.length ? e[i] : "<end of file>";
      String al = i < a.length ? a[i] : "<end of file>";
      if (!el.equals(al)) {
        return "first at line " + (i + 1) + ": expected [" + el.strip() + "] but found [" + al.strip() + "]";
      }
    }
    return "in line endings";
  }

  /** A directory given by the build as a system property, or relative to the module when run from an IDE. */
  private static Path directory(String property, String fallback) {
    String configured = System.getProperty(property);
    return Paths.get(configured != null && !configured.isBlank() ? configured : fallback);
  }
}
