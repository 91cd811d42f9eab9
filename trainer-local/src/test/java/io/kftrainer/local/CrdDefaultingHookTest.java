package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.zjsonpatch.JsonPatch;
import io.kftrainer.apiserver.AdmissionHook;
import io.kftrainer.apiserver.AdmissionRequest;
import io.kftrainer.apiserver.AdmissionResponse;
import io.kftrainer.testkit.Fixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CrdDefaultingHookTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  static Stream<Arguments> objects() {
    return Stream.of(
        Arguments.of("a TrainJob gets its runtimeRef and managedBy defaults and keeps what was set", "trainjob"),
        Arguments.of("a TrainingRuntime's empty MPI and co-scheduling policies get their defaults",
            "trainingruntime"),
        Arguments.of("a ClusterTrainingRuntime with every defaulted field set is unchanged",
            "clustertrainingruntime"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("objects")
  void theObjectIsStoredWithItsCrdDefaults(String name, String file) {
    JsonNode object = yaml("local/crd-defaults/" + file + ".yaml");

    AdmissionResponse response = admit(object);

    assertThat(response.allowed()).isTrue();
    JsonNode stored = response.jsonPatch() == null ? object : JsonPatch.apply(response.jsonPatch(), object);
    assertThat(stored).isEqualTo(yaml("local/crd-defaults/" + file + "-defaulted.yaml"));
  }

  @Test
  void theHooksAreMutatingAndHandleOnlyTheMainResourceOfTheTrainerKinds() {
    List<AdmissionHook> hooks = CrdDefaultingHook.forTrainerKinds(SERIALIZATION);
    AdmissionRequest trainJob = request(yaml("local/crd-defaults/trainjob.yaml"), null);

    assertThat(hooks).extracting(AdmissionHook::phase).containsOnly(AdmissionHook.Phase.MUTATING);
    assertThat(hooks).filteredOn(hook -> hook.handles(trainJob)).hasSize(1);
    assertThat(hooks).noneMatch(hook -> hook.handles(request(yaml("local/crd-defaults/trainjob.yaml"), "status")));
  }

  @Test
  void anObjectThatDoesNotReadAsTheModelIsAdmittedUnchanged() {
    JsonNode object = yaml("local/crd-defaults/trainjob.yaml");
    ((com.fasterxml.jackson.databind.node.ObjectNode) object.path("spec")).put("trainer", "not an object");

    AdmissionResponse response = admit(object);

    assertThat(response.allowed()).isTrue();
    assertThat(response.isMutation()).isFalse();
  }

  private static AdmissionResponse admit(JsonNode object) {
    return new CrdDefaultingHook(SERIALIZATION).admit(request(object, null));
  }

  private static AdmissionRequest request(JsonNode object, String subResource) {
    String kind = object.path("kind").asText();
    return new AdmissionRequest("uid", AdmissionRequest.Operation.CREATE, "trainer.kubeflow.org", "v1alpha1", kind,
        kind.toLowerCase(java.util.Locale.ROOT) + "s", subResource, object.path("metadata").path("namespace")
            .asText(null), object.path("metadata").path("name").asText(), SERIALIZATION.convertValue(object,
            GenericKubernetesResource.class), null, false);
  }

  private static JsonNode yaml(String resource) {
    return SERIALIZATION.unmarshal(Fixtures.resource(resource), JsonNode.class);
  }
}
