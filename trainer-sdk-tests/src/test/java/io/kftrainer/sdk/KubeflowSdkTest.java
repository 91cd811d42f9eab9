package io.kftrainer.sdk;

import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Locations;
import io.kftrainer.e2e.support.PytestSuite;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The real Kubeflow Python SDK (PyPI's {@code kubeflow}, locked in {@code requirements.txt}) against {@code local}:
 * starts {@code trainer.jar local} as a process (ephemeral, its own ports, pods executed), runs the pytest suite of
 * {@code src/test/python} with the virtual environment {@code .ci/install-sdk} made, the kubeconfig in
 * {@code KUBECONFIG}, and reports each pytest case as a test of its own: failed, skipped or passed as pytest said
 * ({@link PytestSuite}). Without the virtual environment (or without the SDK in it) the suite reports itself
 * skipped. The same suite against the real cluster lab: trainer-deploy's {@code KubeflowSdkOnKubernetesIT}.
 */
class KubeflowSdkTest {

  /** The whole pytest run; each case bounds its own waits well below this. */
  private static final Duration SUITE_TIMEOUT = Duration.ofMinutes(15);

  @TestFactory
  Stream<DynamicTest> theKubeflowSdkDrivesLocal() throws Exception {
    Path venv = Path.of(System.getProperty("trainer.sdkVenv", "../.tools/sdk-venv"));
    Path tests = Path.of(System.getProperty("trainer.sdkTests", "src/test/python"));
    var suite = PytestSuite.find(venv, tests);
    if (suite.value().isEmpty()) {
      // a skipped test, not an aborted factory: surefire counts this one as skipped
      return suite.skipped("the Kubeflow SDK suite");
    }
    try (LocalOperator local = LocalOperator.startExecuting("sdk-local", List.of())) {
      return suite.value().get().run(Locations.workDir(),
          Map.of("KUBECONFIG", local.kubeconfig().toString(), "TRAINER_SDK_TARGET", "local"), SUITE_TIMEOUT,
          () -> local.logTail(60)).stream();
    }
  }
}
