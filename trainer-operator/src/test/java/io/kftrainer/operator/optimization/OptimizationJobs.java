package io.kftrainer.operator.optimization;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The test OptimizationJob ({@code optimization/optimizationjob.yaml}), as a tree or typed. */
final class OptimizationJobs {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private OptimizationJobs() {
  }

  static ObjectNode tree(String namespace) {
    try (InputStream in = OptimizationJobs.class.getClassLoader()
        .getResourceAsStream("optimization/optimizationjob.yaml")) {
      ObjectNode tree = (ObjectNode) YAML.readTree(in);
      tree.withObjectProperty("metadata").put("namespace", namespace);
      return tree;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static OptimizationJob typed(String namespace, String name) {
    ObjectNode tree = tree(namespace);
    tree.withObjectProperty("metadata").put("name", name);
    try {
      return YAML.treeToValue(tree, OptimizationJob.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
