package io.kftrainer.lab.differential;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The cases of Python's kubernetes client (Debian's {@code python3-kubernetes}, at {@code /usr/bin/python3}):
 * {@code differential/python_client.py} runs one call and prints what the client saw. Skipped where the package is
 * missing.
 */
final class PythonCases {

  private static final String PYTHON = "/usr/bin/python3";
  private static Boolean available;

  private PythonCases() {
  }

  static void add(Cases cases) {
    cases.add("python", "create a ConfigMap", (side, ns) -> run(side.kubeconfig(), ns, "create"));
    cases.add("python", "get a ConfigMap", (side, ns) -> run(side.kubeconfig(), ns, "get"));
    cases.add("python", "replace with a stale resourceVersion", (side, ns) -> run(side.kubeconfig(), ns,
        "conflict"));
    cases.add("python", "get a missing ConfigMap", (side, ns) -> run(side.kubeconfig(), ns, "not-found"));
    cases.add("python", "list Secrets as a ServiceAccount without rights", (side, ns) -> {
      assumeAvailable();
      return run(KubectlCases.nobody(side, ns), ns, "forbidden");
    });
  }

  private static Observation run(Path kubeconfig, String namespace, String pythonCase) throws Exception {
    assumeAvailable();
    Process process = new ProcessBuilder(List.of(PYTHON, script().toString(), kubeconfig.toString(), namespace,
        pythonCase)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("python_client.py " + pythonCase + " failed: " + out);
    }
    JsonNode seen = Normalized.JSON.readTree(out);
    Observation observation = new Observation().put("status", seen.path("status").asInt());
    if (seen.has("reason")) {
      Normalized.status(observation, seen);
    }
    return seen.has("object") ? observation.put("object", Normalized.object(seen.get("object"))) : observation;
  }

  private static synchronized void assumeAvailable() {
    if (available == null) {
      try {
        Process probe = new ProcessBuilder(PYTHON, "-c", "import kubernetes").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        available = probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0;
      } catch (IOException e) {
        available = false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    Assumptions.assumeTrue(available, "Python's kubernetes client is not installed (apt-get install "
        + "python3-kubernetes)");
  }

  private static Path script() {
    try {
      return Path.of(PythonCases.class.getResource("/differential/python_client.py").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
