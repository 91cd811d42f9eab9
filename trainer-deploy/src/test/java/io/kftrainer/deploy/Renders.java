package io.kftrainer.deploy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The chart and the kustomizations, rendered by the real tools as a cluster operator renders them; each rendering
 * is made once per test JVM (a render with the CRDs takes seconds).
 */
public final class Renders {

  /** The release and namespace docs/install.md uses: objects get the names of manifests/base. */
  public static final String RELEASE = "kubeflow-trainer";
  public static final String NAMESPACE = "kubeflow-system";
  /** Test values files (src/test/resources/chart): {@code <case>-values.yaml}. */
  public static final Path CASES = Path.of("src/test/resources/chart").toAbsolutePath();

  private static final Map<List<String>, String> CACHE = new ConcurrentHashMap<>();

  private Renders() {
  }

  /** {@code helm template kubeflow-trainer <chart> -n kubeflow-system ARGS...}, its output (or a failure). */
  public static String template(String... args) throws IOException {
    List<String> key = List.of(args);
    String cached = CACHE.get(key);
    if (cached == null) {
      cached = helmTemplate(args).success();
      CACHE.put(key, cached);
    }
    return cached;
  }

  /** The outcome of {@code helm template}, not cached: for renders expected to fail. */
  public static Tools.Result helmTemplate(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("template", RELEASE, Deploy.chart().toString(), "-n", NAMESPACE));
    command.addAll(List.of(args));
    return Tools.helm(command.toArray(String[]::new));
  }

  /** The chart with the values of a test case ({@code default}: none). */
  public static String templateCase(String testCase) throws IOException {
    return testCase.equals("default") ? template() : template("-f", CASES.resolve(testCase + "-values.yaml").toString());
  }

  public static Rendered chart(String... args) throws IOException {
    return Rendered.parse(template(args));
  }

  /** {@code kubectl kustomize manifests/<dir>}. */
  public static Rendered kustomize(String dir) throws IOException {
    List<String> key = List.of("kustomize", dir);
    String cached = CACHE.get(key);
    if (cached == null) {
      cached = Tools.kustomize(Deploy.manifests().resolve(dir));
      CACHE.put(key, cached);
    }
    return Rendered.parse(cached);
  }
}
