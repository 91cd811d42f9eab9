package io.kftrainer.api.crd.generator;

import io.kftrainer.api.crd.KubernetesMarkers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finishes the trainer CRDs that fabric8's CRD generator wrote (build step {@code process-classes}, after the
 * generator): adds the markers of the embedded Kubernetes types ({@link KubernetesMarkers}) and puts the printer
 * columns in the order the class declares them (the generator sorts them by JSON path, so upstream's {@code State}
 * then {@code Age} came out reversed). The generator's header comment is kept. Each CRD of the directory, JobSet's
 * included, is also written as compact JSON beside its YAML ({@code <name>-v1.json}), for readers that start often.
 *
 * <p>Usage: {@code CrdPostProcessor <directory of the generated CRDs>}. Only the build runs this class.
 */
public final class CrdPostProcessor {

  private static final Map<String, Class<? extends CustomResource<?, ?>>> CRDS = Map.of(
      "trainjobs.trainer.kubeflow.org-v1.yml", TrainJob.class,
      "trainingruntimes.trainer.kubeflow.org-v1.yml", TrainingRuntime.class,
      "clustertrainingruntimes.trainer.kubeflow.org-v1.yml", ClusterTrainingRuntime.class,
      "optimizationjobs.trainer.kubeflow.org-v1.yml", OptimizationJob.class);

  private static final String YAML_SUFFIX = "-v1.yml";
  /** The same CRD as compact JSON, which {@code local} posts at each start: parsing the YAML took 0.4 s of CPU. */
  private static final String JSON_SUFFIX = "-v1.json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .disable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .build());

  private CrdPostProcessor() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: CrdPostProcessor <directory of the generated CRDs>");
    }
    KubernetesMarkers markers = KubernetesMarkers.load();
    Path directory = Path.of(args[0]);
    for (Map.Entry<String, Class<? extends CustomResource<?, ?>>> crd : CRDS.entrySet()) {
      Path file = directory.resolve(crd.getKey());
      String text = Files.readString(file, StandardCharsets.UTF_8);
      Files.writeString(file, process(text, crd.getValue(), markers), StandardCharsets.UTF_8);
    }
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(YAML_SUFFIX)).toList()) {
        String name = file.getFileName().toString();
        Files.writeString(file.resolveSibling(name.substring(0, name.length() - YAML_SUFFIX.length()) + JSON_SUFFIX),
            JSON.writeValueAsString(YAML.readTree(Files.readString(file, StandardCharsets.UTF_8))),
            StandardCharsets.UTF_8);
      }
    }
  }

  /** The CRD {@code text} generated for {@code type}, finished. */
  static String process(String text, Class<? extends CustomResource<?, ?>> type, KubernetesMarkers markers)
      throws IOException {
    StringBuilder header = new StringBuilder();
    for (String line : text.split("\n")) {
      if (!line.startsWith("#")) {
        break;
      }
      header.append(line).append('\n');
    }
    ObjectNode crd = (ObjectNode) YAML.readTree(text);
    for (JsonNode version : crd.path("spec").path("versions")) {
      markers.apply((ObjectNode) version.path("schema").path("openAPIV3Schema"), type);
      if (version.get("additionalPrinterColumns") instanceof ArrayNode columns) {
        orderColumns(columns, type);
      }
    }
    return header + YAML.writeValueAsString(crd);
  }

  private static void orderColumns(ArrayNode columns, Class<?> type) {
    List<String> declared = Arrays.stream(type.getAnnotationsByType(AdditionalPrinterColumn.class))
        .map(AdditionalPrinterColumn::name).toList();
    List<JsonNode> sorted = new ArrayList<>();
    columns.forEach(sorted::add);
    sorted.sort((a, b) -> Integer.compare(rank(declared, a), rank(declared, b)));
    columns.removeAll();
    columns.addAll(sorted);
  }

  private static int rank(List<String> declared, JsonNode column) {
    int index = declared.indexOf(column.path("name").asText());
    return index < 0 ? declared.size() : index;
  }
}
