package io.kftrainer.deploy.chart;

import io.kftrainer.deploy.Deploy;
import io.kftrainer.deploy.Rendered;
import io.kftrainer.deploy.Tools;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The chart and the kustomizations, rendered by the real tools, as a cluster operator renders them. */
final class Charts {

  /** The release and namespace docs/install.md uses: objects get the names of manifests/base. */
  static final String RELEASE = "kubeflow-trainer";
  static final String NAMESPACE = "kubeflow-system";
  /** Test values files (src/test/resources/chart): {@code <case>-values.yaml}. */
  static final Path CASES = Path.of("src/test/resources/chart").toAbsolutePath();

  private Charts() {
  }

  /** {@code helm template kubeflow-trainer <chart> -n kubeflow-system ARGS...}, its output (or a failure). */
  static String template(String... args) throws IOException {
    return helmTemplate(args).success();
  }

  static Tools.Result helmTemplate(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("template", RELEASE, Deploy.chart().toString(), "-n", NAMESPACE));
    command.addAll(List.of(args));
    return Tools.helm(command.toArray(String[]::new));
  }

  /** The chart with the values of a test case ({@code default}: none). */
  static String templateCase(String testCase) throws IOException {
    return testCase.equals("default") ? template() : template("-f", CASES.resolve(testCase + "-values.yaml").toString());
  }

  static Rendered chart(String... args) throws IOException {
    return Rendered.parse(template(args));
  }

  /** {@code kubectl kustomize manifests/<dir>}. */
  static Rendered kustomize(String dir) throws IOException {
    return Rendered.parse(Tools.kustomize(Deploy.manifests().resolve(dir)));
  }
}
