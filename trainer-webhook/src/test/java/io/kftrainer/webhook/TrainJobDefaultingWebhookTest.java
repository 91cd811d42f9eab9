package io.kftrainer.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.testkit.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TrainJob defaulter: the JSON patch it answers for {@code runtimePatches[].time}, on create and update (cases
 * after upstream's {@code TestDefault}).
 */
class TrainJobDefaultingWebhookTest {

  private static final String NOW = "2026-03-04T05:06:07Z";
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-04T05:06:07.891Z"), ZoneOffset.UTC);
  private static final String EARLIER = "2026-01-01T00:00:00Z";
  private static final String KUEUE = "{manager: kueue.x-k8s.io/manager, %s trainingRuntimeSpec: {template: {spec: "
      + "{replicatedJobs: [{name: node, template: {spec: {template: {spec: {nodeSelector: {pool: %s}}}}}}]}}}}";

  private final TrainJobDefaultingWebhook webhook = new TrainJobDefaultingWebhook(CLOCK,
      TestingAdmission.SERIALIZATION);

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a TrainJob without runtime patches is not patched", "CREATE", "[]", null, null),
        Arguments.of("on create a patch without a time gets now", "CREATE", "[" + kueue(null, "a") + "]", null,
            "[{\"op\":\"add\",\"path\":\"/spec/runtimePatches/0/time\",\"value\":\"" + NOW + "\"}]"),
        Arguments.of("on create a patch with a time keeps it", "CREATE", "[" + kueue(EARLIER, "a") + "]", null, null),
        Arguments.of("on create only the patches without a time are stamped", "CREATE",
            "[" + kueue(EARLIER, "a") + ", {manager: team.example.com/tool}]", null,
            "[{\"op\":\"add\",\"path\":\"/spec/runtimePatches/1/time\",\"value\":\"" + NOW + "\"}]"),
        Arguments.of("on update an unchanged patch keeps its time", "UPDATE", "[" + kueue(EARLIER, "a") + "]",
            "[" + kueue(EARLIER, "a") + "]", null),
        Arguments.of("on update an unchanged patch sent without a time gets its old time back", "UPDATE",
            "[" + kueue(null, "a") + "]", "[" + kueue(EARLIER, "a") + "]",
            "[{\"op\":\"add\",\"path\":\"/spec/runtimePatches/0/time\",\"value\":\"" + EARLIER + "\"}]"),
        Arguments.of("on update an unchanged patch sent with another time gets its old time back", "UPDATE",
            "[" + kueue("2026-02-02T00:00:00Z", "a") + "]", "[" + kueue(EARLIER, "a") + "]",
            "[{\"op\":\"replace\",\"path\":\"/spec/runtimePatches/0/time\",\"value\":\"" + EARLIER + "\"}]"),
        Arguments.of("on update a changed patch gets now, whatever time it carries", "UPDATE",
            "[" + kueue(EARLIER, "b") + "]", "[" + kueue(EARLIER, "a") + "]",
            "[{\"op\":\"replace\",\"path\":\"/spec/runtimePatches/0/time\",\"value\":\"" + NOW + "\"}]"),
        Arguments.of("on update a patch of a new manager without a time gets now", "UPDATE",
            "[" + kueue(EARLIER, "a") + ", {manager: team.example.com/tool}]", "[" + kueue(EARLIER, "a") + "]",
            "[{\"op\":\"add\",\"path\":\"/spec/runtimePatches/1/time\",\"value\":\"" + NOW + "\"}]"),
        Arguments.of("on update a patch of a new manager with a time keeps it", "UPDATE",
            "[{manager: team.example.com/tool, time: '" + EARLIER + "'}]", "[]", null),
        Arguments.of("a delete is not patched", "DELETE", "[" + kueue(null, "a") + "]", null, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void admit(String name, String operation, String patches, String oldPatches, String expectedPatch) {
    TrainJob trainJob = trainJob(patches);
    TrainJob old = oldPatches == null ? null : trainJob(oldPatches);

    AdmissionResponse response = webhook.admit(TestingAdmission.request(operation, trainJob, old));

    assertThat(response.getAllowed()).isTrue();
    assertThat(response.getStatus()).isNull();
    if (expectedPatch == null) {
      assertThat(response.getPatch()).isNull();
      assertThat(response.getPatchType()).isNull();
    } else {
      assertThat(response.getPatchType()).isEqualTo("JSONPatch");
      assertThat(new String(Base64.getDecoder().decode(response.getPatch()), StandardCharsets.UTF_8))
          .isEqualTo(expectedPatch);
    }
  }

  private static String kueue(String time, String pool) {
    return KUEUE.formatted(time == null ? "" : "time: '" + time + "',", pool);
  }

  private static TrainJob trainJob(String runtimePatches) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("webhook/trainjob.yaml"));
    TrainJob withPatches = Fixtures.trainJob("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
        + "metadata: {name: job}\nspec: {runtimeRef: {name: x}, runtimePatches: " + runtimePatches + "}\n");
    trainJob.getSpec().setRuntimePatches(withPatches.getSpec().getRuntimePatches());
    return trainJob;
  }
}
