package io.kftrainer.sdk;

import static org.junit.jupiter.api.Assertions.fail;

import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The real Kubeflow Python SDK (PyPI's {@code kubeflow}, locked in {@code requirements.txt}) against {@code local}:
 * starts {@code trainer.jar local} as a process (ephemeral, its own ports, pods executed), runs the pytest suite of
 * {@code src/test/python} with the virtual environment {@code .ci/install-sdk} made, the kubeconfig in
 * {@code KUBECONFIG}, and reports each pytest case as a test of its own: failed, skipped or passed as pytest said.
 * Without the virtual environment (or without the SDK in it) the suite reports itself skipped.
 */
class KubeflowSdkTest {

  /** The whole pytest run; each case bounds its own waits well below this. */
  private static final Duration SUITE_TIMEOUT = Duration.ofMinutes(15);

  @TestFactory
  Stream<DynamicTest> theKubeflowSdkDrivesLocal() throws Exception {
    Path venv = Path.of(System.getProperty("trainer.sdkVenv", "../.tools/sdk-venv")).toAbsolutePath().normalize();
    Path python = venv.resolve("bin/python");
    String missing = !Files.isExecutable(python) ? "no virtual environment with the Kubeflow SDK at " + venv
        : !succeeds(python, "import kubeflow.trainer, pytest") ? venv + " has not the Kubeflow SDK and pytest" : null;
    if (missing != null) {
      // a skipped test, not an aborted factory: surefire counts this one as skipped
      return Stream.of(DynamicTest.dynamicTest("the Kubeflow SDK suite",
          () -> Assumptions.abort(missing + ": run .ci/install-sdk")));
    }
    Path tests = Path.of(System.getProperty("trainer.sdkTests", "src/test/python")).toAbsolutePath().normalize();
    Path work = Locations.workDir();
    Path report = work.resolve("pytest.xml");
    Path output = work.resolve("pytest.log");
    Files.deleteIfExists(report);

    int exitCode;
    try (LocalOperator local = LocalOperator.startExecuting("sdk-local", List.of())) {
      ProcessBuilder builder = new ProcessBuilder(python.toString(), "-m", "pytest", "-p", "no:cacheprovider",
          "-o", "junit_family=xunit2", "--junitxml=" + report, "-rA", "--durations=0", "--color=no",
          tests.toString())
          .directory(tests.toFile()).redirectErrorStream(true).redirectOutput(output.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().put("KUBECONFIG", local.kubeconfig().toString());
      builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
      builder.environment().put("PYTHONUNBUFFERED", "1");
      Process pytest = builder.start();
      if (!pytest.waitFor(SUITE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        pytest.descendants().forEach(ProcessHandle::destroyForcibly);
        pytest.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        fail("pytest did not end within " + SUITE_TIMEOUT + "\n" + tail(output, 80) + "\n" + local.logTail(40));
      }
      exitCode = pytest.exitValue();
      System.out.println(Files.readString(output, StandardCharsets.UTF_8));
      if (exitCode != 0) {
        System.out.println(local.logTail(60));
      }
    }

    List<DynamicTest> cases = Files.exists(report) ? cases(report) : new ArrayList<>();
    // 0: all passed; 1: some failed (their cases say which); anything else, or no report: pytest itself failed
    if (cases.isEmpty() || (exitCode != 0 && exitCode != 1)) {
      int code = exitCode;
      cases.add(DynamicTest.dynamicTest("pytest run", () -> fail("pytest exited with code " + code
          + (Files.exists(report) ? "" : " without a report") + "\n" + tail(output, 80))));
    }
    return cases.stream();
  }

  /** One dynamic test per {@code <testcase>} of pytest's JUnit XML report. */
  private static List<DynamicTest> cases(Path report) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    NodeList testCases = factory.newDocumentBuilder().parse(report.toFile()).getElementsByTagName("testcase");
    List<DynamicTest> cases = new ArrayList<>();
    for (int i = 0; i < testCases.getLength(); i++) {
      Element testCase = (Element) testCases.item(i);
      // a module skipped as a whole (pytest.importorskip) is a case without a class name
      String name = testCase.getAttribute("classname").isEmpty() ? testCase.getAttribute("name")
          : testCase.getAttribute("classname") + "." + testCase.getAttribute("name");
      Element failure = first(testCase, "failure");
      Element error = failure != null ? failure : first(testCase, "error");
      Element skipped = first(testCase, "skipped");
      cases.add(DynamicTest.dynamicTest(name, () -> {
        if (error != null) {
          fail(name + ": " + error.getAttribute("message") + "\n" + error.getTextContent());
        }
        if (skipped != null) {
          // a skipped module's reason is in the text ("collection skipped" is the message)
          Assumptions.abort(skipped.getAttribute("message").equals("collection skipped")
              ? skipped.getTextContent() : skipped.getAttribute("message"));
        }
      }));
    }
    return cases;
  }

  private static Element first(Element parent, String tag) {
    NodeList nodes = parent.getElementsByTagName(tag);
    return nodes.getLength() == 0 ? null : (Element) nodes.item(0);
  }

  private static boolean succeeds(Path python, String code) throws InterruptedException {
    try {
      Process process = new ProcessBuilder(python.toString(), "-c", code).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return false;
      }
      return process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.exists(file) ? Files.readAllLines(file) : List.of();
      return "--- last lines of " + file + "\n"
          + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + file + ": " + e + ")";
    }
  }
}
