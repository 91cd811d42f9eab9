package io.kftrainer.operator.optimization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kftrainer.operator.controller.TestCluster;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OptimizationJob CRD's rules, each with the message kube-apiserver gives (the embedded API server evaluates the
 * CRD's schema and CEL rules as kube-apiserver does): upstream's rules, the parameter name that must make an
 * environment variable name, and ours. Nothing invalid is stored.
 */
class OptimizationJobAdmissionTest {

  private static final String NS = "admission";
  private static TestCluster cluster;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start();
    client = cluster.client();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("both random and grid", edit("/spec/searchAlgorithm", s -> s.putObject("grid")),
            "spec.searchAlgorithm: Invalid value: \"object\": exactly one of the fields in [random grid] must be set"),
        Arguments.of("two distributions", edit("/spec/parameters/0/searchSpace",
                s -> s.putObject("uniform").put("min", "1").put("max", "2")),
            "spec.parameters[0].searchSpace: Invalid value: \"object\": exactly one of the fields in [uniform "
                + "logUniform categorical] must be set"),
        Arguments.of("min not below max", edit("/spec/parameters/0/searchSpace/logUniform", s -> s.put("min", "0.1")),
            "spec.parameters[0].searchSpace.logUniform: Invalid value: \"object\": min must be strictly less than max"),
        Arguments.of("log-uniform from 0", edit("/spec/parameters/0/searchSpace/logUniform", s -> s.put("min", "0")),
            "spec.parameters[0].searchSpace.logUniform: Invalid value: \"object\": min must be strictly greater than 0"),
        Arguments.of("more parallel trials than trials", edit("/spec", s -> s.put("parallelTrials", 4)),
            "spec: Invalid value: \"object\": parallelTrials cannot exceed numTrials"),
        Arguments.of("a bound not written as a decimal number", edit("/spec/parameters/0/searchSpace/logUniform",
                s -> s.put("max", "+0.1")),
            "spec.parameters[0].searchSpace.logUniform.max: Invalid value: \"+0.1\": "
                + "spec.parameters[0].searchSpace.logUniform.max in body should match "
                + "'^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$'"),
        Arguments.of("a named template", edit("/spec/trainJobTemplate/metadata", s -> s.put("name", "x")),
            "spec.trainJobTemplate.metadata: Invalid value: \"object\": name and namespace cannot be set in a "
                + "template."),
        Arguments.of("a parameter name that is no environment variable name", edit("/spec/parameters/0",
                s -> s.put("name", "learning-rate")),
            "spec.parameters[0].name: Invalid value: \"learning-rate\": spec.parameters[0].name in body should match "
                + "'^[A-Za-z_][A-Za-z0-9_]*$'"),
        Arguments.of("two names for one environment variable", edit("/spec/parameters/1", s -> s.put("name", "LR")),
            "spec.parameters: Invalid value: \"object\": parameter names must differ in more than case: each becomes "
                + "the environment variable KUBEFLOW_TRAINER_OPT_<NAME> in upper case"),
        Arguments.of("Int bounds that are not whole", edit("/spec/parameters/0/searchSpace/logUniform",
                s -> s.put("type", "Int")),
            "spec.parameters[0].searchSpace.logUniform: Invalid value: \"object\": min and max must be whole numbers "
                + "with magnitude at most 2^53 when type is Int"),
        Arguments.of("an unknown direction", edit("/spec/objectives/0", s -> s.put("direction", "minimize")),
            "[spec.objectives[0].direction: Unsupported value: \"minimize\": supported values: \"Maximize\", "
                + "\"Minimize\", <nil>: Invalid value: \"null\": some validation rules were not checked because the "
                + "object was invalid; correct the existing errors to complete validation]"));
  }

  @ParameterizedTest(name = "{0} is refused")
  @MethodSource("invalid")
  void anInvalidOptimizationJobIsRefusedWithKubeApiserversMessage(String what, Consumer<ObjectNode> change,
      String error) {
    ObjectNode job = OptimizationJobs.tree(NS);
    change.accept(job);

    assertThatThrownBy(() -> create(job))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getStatus().getMessage())
              .isEqualTo("OptimizationJob.trainer.kubeflow.org \"tune\" is invalid: " + error);
        });
    assertThat(client.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "OptimizationJob").inNamespace(NS)
        .withName("tune").get()).isNull();
  }

  @Test
  @SuppressWarnings("unchecked")
  void theSpecIsImmutable() {
    ObjectNode job = OptimizationJobs.tree(NS);
    job.withObjectProperty("metadata").put("name", "immutable");
    create(job);
    GenericKubernetesResource stored = client.genericKubernetesResources("trainer.kubeflow.org/v1alpha1",
        "OptimizationJob").inNamespace(NS).withName("immutable").get();
    ((java.util.Map<String, Object>) stored.getAdditionalProperties().get("spec")).put("numTrials", 5);

    assertThatThrownBy(() -> client.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "OptimizationJob")
        .inNamespace(NS).resource(stored).update())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
            .isEqualTo("OptimizationJob.trainer.kubeflow.org \"immutable\" is invalid: spec: Invalid value: "
                + "\"object\": OptimizationJobSpec is immutable and cannot be updated after creation"));
  }

  @Test
  void upstreamsDefaultsAreApplied() {
    ObjectNode job = OptimizationJobs.tree(NS);
    job.withObjectProperty("metadata").put("name", "defaults");
    ObjectNode spec = job.withObjectProperty("spec");
    spec.remove("searchAlgorithm");
    spec.remove("numTrials");
    spec.remove("parallelTrials");

    JsonNode stored = client.getKubernetesSerialization().convertValue(create(job), JsonNode.class).path("spec");

    assertThat(stored.path("searchAlgorithm").toString()).isEqualTo("{\"random\":{}}");
    assertThat(stored.path("numTrials").asInt()).isEqualTo(1);
    assertThat(stored.path("parallelTrials").asInt()).isEqualTo(1);
    assertThat(stored.path("objectives").path(0).path("direction").asText()).isEqualTo("Minimize");
    assertThat(stored.path("parameters").path(0).path("searchSpace").path("logUniform").path("type").asText())
        .isEqualTo("Float");
  }

  @Test
  void aGridOverContinuousParametersIsAcceptedHereUnlikeUpstream() {
    ObjectNode job = OptimizationJobs.tree(NS);
    job.withObjectProperty("metadata").put("name", "grid");
    job.withObjectProperty("spec").set("searchAlgorithm", job.objectNode().set("grid", job.objectNode()));

    assertThat(create(job).getMetadata().getName()).isEqualTo("grid");
  }

  private static GenericKubernetesResource create(ObjectNode job) {
    return client.genericKubernetesResources("trainer.kubeflow.org/v1alpha1", "OptimizationJob").inNamespace(NS)
        .resource(client.getKubernetesSerialization().convertValue(job, GenericKubernetesResource.class)).create();
  }

  private static Consumer<ObjectNode> edit(String pointer, Consumer<ObjectNode> change) {
    return job -> change.accept((ObjectNode) job.at(pointer));
  }
}
