package io.kftrainer.e2e.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.SharedLocalOperator;
import io.kftrainer.e2e.support.TrainJobs;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An invalid TrainJob never reaches the store: the operator's validating webhook denies it, and the client gets
 * the answer a cluster gives ({@code 422 Invalid}, the message prefixed by the API server with the webhook's name,
 * one cause per field error).
 */
@ExtendWith(SharedLocalOperator.class)
class AdmissionTest {

  private static final String DENIED =
      "admission webhook \"validator.trainjob.trainer.kubeflow.org\" denied the request: ";

  private static LocalOperator operator;
  private static KubernetesClient client;
  private TrainJobs trainJobs;

  @BeforeAll
  static void connect(LocalOperator local) {
    operator = local;
    client = local.client();
  }

  @BeforeEach
  void namespace() {
    trainJobs = new TrainJobs(client, operator.createNamespace("admission"));
  }

  static Stream<Arguments> invalidTrainJobs() {
    return Stream.of(
        Arguments.of("a TrainJob setting an env var the torch plugin reserves is denied",
            "manifests/reserved-env-trainjob.yaml", "reserved-env", "spec.trainer.env",
            "TrainJob.trainer.kubeflow.org \"reserved-env\" is invalid: spec.trainer.env: Invalid value: "
                + "[{\"name\":\"PET_NNODES\",\"value\":\"4\"}]: must not have reserved envs, invalid envs "
                + "configured: [PET_NNODES]"),
        Arguments.of("a TrainJob whose runtime does not exist is denied",
            "manifests/missing-runtime-trainjob.yaml", "missing-runtime", "spec.runtimeRef",
            "TrainJob.trainer.kubeflow.org \"missing-runtime\" is invalid: spec.runtimeRef: Not found: "
                + "\"no-such-runtime\": specified clusterTrainingRuntime must be created before the TrainJob is "
                + "created"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidTrainJobs")
  void invalidTrainJobIsDeniedWithTheWebhookMessage(String description, String manifest, String name, String field,
      String message) {
    GenericKubernetesResource trainJob = Manifests.resource(manifest, name);

    KubernetesClientException denied = catchThrowableOfType(KubernetesClientException.class,
        () -> client.resource(trainJob).inNamespace(trainJobs.namespace()).create());

    assertThat(denied).as("the create was denied").isNotNull();
    assertThat(denied.getCode()).isEqualTo(422);
    assertThat(denied.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(denied.getStatus().getMessage()).isEqualTo(DENIED + message);
    assertThat(denied.getStatus().getDetails().getCauses()).singleElement()
        .satisfies(cause -> assertThat(cause.getField()).isEqualTo(field));
    assertThat(trainJobs.get(name)).as("stored TrainJob").isNull();
    assertThat(trainJobs.jobSet(name)).as("JobSet").isNull();
  }
}
