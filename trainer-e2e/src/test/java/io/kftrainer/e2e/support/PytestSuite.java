package io.kftrainer.e2e.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The Kubeflow SDK's pytest suite (trainer-sdk-tests' {@code src/test/python}) run by a JUnit test factory: the
 * virtual environment {@code .ci/install-sdk} makes, checked first (without it the factory's one test reports itself
 * skipped); pytest with a JUnit XML report in a work directory; each {@code <testcase>} of the report one dynamic
 * test, failed, skipped or passed as pytest said. {@code KubeflowSdkTest} runs it against {@code local},
 * trainer-deploy's {@code KubeflowSdkOnKubernetesIT} against the lab.
 */
public final class PytestSuite {

  private final Path python;
  private final Path tests;

  private PytestSuite(Path python, Path tests) {
    this.python = python;
    this.tests = tests;
  }

  /**
   * The suite of {@code tests} with the virtual environment {@code venv}, or why it cannot run: no
   * {@code venv/bin/python}, or no Kubeflow SDK and pytest in it.
   */
  public static Result<PytestSuite> find(Path venv, Path tests) throws InterruptedException {
    Path python = venv.toAbsolutePath().normalize().resolve("bin/python");
    if (!Files.isExecutable(python)) {
      return Result.missing("no virtual environment with the Kubeflow SDK at " + venv + ": run .ci/install-sdk");
    }
    if (!succeeds(python, "import kubeflow.trainer, pytest")) {
      return Result.missing(venv + " has not the Kubeflow SDK and pytest: run .ci/install-sdk");
    }
    return Result.found(new PytestSuite(python, tests.toAbsolutePath().normalize()));
  }

  /** What {@link #find} found, or why not. */
  public record Result<T>(Optional<T> value, String missing) {
    static <T> Result<T> found(T value) {
      return new Result<>(Optional.of(value), null);
    }

    static <T> Result<T> missing(String reason) {
      return new Result<>(Optional.empty(), reason);
    }

    /** The one test a factory returns when the suite cannot run: skipped, with the reason. */
    public Stream<DynamicTest> skipped(String name) {
      return Stream.of(DynamicTest.dynamicTest(name, () -> Assumptions.abort(missing)));
    }
  }

  /** The seconds pytest took, last run (its process, from start to exit). */
  private double seconds;

  public double seconds() {
    return seconds;
  }

  /**
   * Runs pytest in {@code work} ({@code pytest.xml}, {@code pytest.log}) with {@code env} added to this process's,
   * at most {@code timeout}, and returns one dynamic test per case. pytest's output is printed; on a failure, so is
   * {@code context} (the log of what the suite ran against).
   */
  public List<DynamicTest> run(Path work, Map<String, String> env, Duration timeout, Supplier<String> context)
      throws IOException, InterruptedException {
    Files.createDirectories(work);
    Path report = work.resolve("pytest.xml");
    Path output = work.resolve("pytest.log");
    Files.deleteIfExists(report);
    ProcessBuilder builder = new ProcessBuilder(python.toString(), "-m", "pytest", "-p", "no:cacheprovider",
        "-o", "junit_family=xunit2", "--junitxml=" + report, "-rA", "--durations=0", "--color=no",
        tests.toString())
        .directory(tests.toFile()).redirectErrorStream(true).redirectOutput(output.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    builder.environment().put("PYTHONUNBUFFERED", "1");
    builder.environment().putAll(env);
    long start = System.nanoTime();
    Process pytest = builder.start();
    if (!pytest.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      pytest.descendants().forEach(ProcessHandle::destroyForcibly);
      pytest.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      fail("pytest did not end within " + timeout + "\n" + tail(output, 80) + "\n" + context.get());
    }
    seconds = (System.nanoTime() - start) / 1e9;
    int exitCode = pytest.exitValue();
    System.out.println(Files.readString(output, StandardCharsets.UTF_8));
    if (exitCode != 0) {
      System.out.println(context.get());
    }
    List<DynamicTest> cases = Files.exists(report) ? cases(report) : new ArrayList<>();
    // 0: all passed; 1: some failed (their cases say which); anything else, or no report: pytest itself failed
    if (cases.isEmpty() || (exitCode != 0 && exitCode != 1)) {
      cases.add(DynamicTest.dynamicTest("pytest run", () -> fail("pytest exited with code " + exitCode
          + (Files.exists(report) ? "" : " without a report") + "\n" + tail(output, 80))));
    }
    return cases;
  }

  /** One dynamic test per {@code <testcase>} of pytest's JUnit XML report. */
  private static List<DynamicTest> cases(Path report) throws IOException {
    NodeList testCases;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      testCases = factory.newDocumentBuilder().parse(report.toFile()).getElementsByTagName("testcase");
    } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
      throw new IOException("cannot read pytest's report " + report, e);
    }
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

  /** The last {@code lines} of {@code file}, headed by its name. */
  public static String tail(Path file, int lines) {
    try {
      List<String> all = Files.exists(file) ? Files.readAllLines(file) : List.of();
      return "--- last lines of " + file + "\n"
          + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(cannot read " + file + ": " + e + ")";
    }
  }
}
