package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.loader.PluginConfiguration;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class NodeQuotaValidationTest {

  private static final RuntimeSource TORCH = Fixtures.shippedRuntime("torch-distributed");

  private static TrainJob trainJob(int numNodes) {
    return Fixtures.trainJob("""
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: quota-test}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer: {numNodes: %d}
        """.formatted(numNodes));
  }

  @Test
  void aTrainJobWithinTheDefaultQuotaIsValid() {
    assertThat(TestPipeline.of(new NodeQuotaValidation()).validate(TORCH, trainJob(8)).errors()).isEmpty();
  }

  @Test
  void aTrainJobOverTheConfiguredQuotaIsRejectedOnNumNodes() {
    NodeQuotaValidation plugin = new NodeQuotaValidation();
    PluginConfiguration.parse(NodeQuotaValidation.NAME + ": {maxNodes: 4}", "test").apply(List.of(plugin));

    assertThat(TestPipeline.of(plugin).validate(TORCH, trainJob(5)).errors()).containsExactly(
        FieldError.invalid(FieldPath.of("spec", "trainer", "numNodes"), 5, "must be at most 4 (node quota)"));
  }

  @Test
  void theOperatorFindsThePlugin() {
    assertThat(ServiceLoader.load(io.kftrainer.framework.spi.Plugin.class).stream())
        .anyMatch(provider -> provider.type() == NodeQuotaValidation.class);
  }
}
