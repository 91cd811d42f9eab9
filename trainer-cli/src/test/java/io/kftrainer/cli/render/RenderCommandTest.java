package io.kftrainer.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kftrainer.cli.TestingCli;
import io.kftrainer.cli.TestingCli.Run;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.Yaml;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code render} driven through the command line, in process. Inputs are under
 * {@code src/test/resources/render/}; the plugins are the built-in ones, and the plugin directory is one that does
 * not exist.
 */
class RenderCommandTest {

  private static final String INPUTS = "src/test/resources/render/";
  private static final String NO_PLUGINS = "--plugins-dir=target/no-such-plugins-dir";

  @Test
  void aTorchTrainJobAloneRendersWithTheShippedRuntime() {
    Run run = render("-f", INPUTS + "torch-trainjob.yaml");

    assertSucceeded(run);
    Golden.assertMatches(Yaml.trees(run.out()), "golden/render-torch-distributed.yaml");
  }

  @Test
  void aTrainJobRendersWithATrainingRuntimeOfTheSameInput() {
    Run run = render("-f", INPUTS + "inline-runtime.yaml");

    assertSucceeded(run);
    Golden.assertMatches(Yaml.trees(run.out()), "golden/render-inline-runtime.yaml");
  }

  @Test
  void anMpiTrainJobRendersItsSshSecretHostfileAndJobSet() {
    Run run = render("-f", INPUTS + "mpi-trainjob.yaml");

    assertSucceeded(run);
    List<JsonNode> objects = Yaml.trees(run.out());
    JsonNode secretData = objects.get(0).path("data");
    // the operator generates the key pair in the cluster; render prints no key material (issue 12, point 6)
    assertThat(decode(secretData.path("ssh-privatekey"))).isEqualTo("[redacted]");
    assertThat(decode(secretData.path("ssh-publickey"))).isEqualTo("[redacted]");
    assertThat(run.out()).doesNotContain("PRIVATE KEY").doesNotContain("LS0tLS1CRUdJTi");
    ((ObjectNode) secretData).put("ssh-privatekey", "<generated>").put("ssh-publickey", "<generated>");
    Golden.assertMatches(objects, "golden/render-mpi-deepspeed.yaml");
  }

  @Test
  void renderingTwiceGivesTheSameText() {
    String[] args = {"-f", INPUTS + "torch-trainjob.yaml", "-f", INPUTS + "inline-runtime.yaml"};

    assertThat(render(args).out()).isEqualTo(render(args).out());
  }

  @Test
  void objectsFollowTheOrderOfTheTrainJobsInTheInput() {
    Run run = render("-f", INPUTS + "inline-runtime.yaml", "-f", INPUTS + "torch-trainjob.yaml");

    assertSucceeded(run);
    assertThat(Yaml.trees(run.out())).extracting(RenderCommandTest::kindAndName)
        .containsExactly("PodGroup team-a/fine-tune", "JobSet team-a/fine-tune", "JobSet default/mnist");
  }

  @Test
  void standardInputRendersLikeTheFile() throws Exception {
    String text = Files.readString(Path.of(INPUTS + "torch-trainjob.yaml"));

    Run run = TestingCli.runWithStdin(text, "render", NO_PLUGINS, "-f", "-");

    assertSucceeded(run);
    assertThat(run.out()).isEqualTo(render("-f", INPUTS + "torch-trainjob.yaml").out());
  }

  @Test
  void aDirectoryContributesItsYamlFilesInNameOrder() {
    Run run = render("-f", INPUTS + "dir");

    assertSucceeded(run);
    assertThat(Yaml.trees(run.out())).extracting(RenderCommandTest::kindAndName)
        .containsExactly("JobSet default/first", "JobSet default/second");
  }

  @Test
  void jsonOutputIsAListOfTheSameObjects() throws Exception {
    String[] yamlArgs = {"-f", INPUTS + "torch-trainjob.yaml", "-f", INPUTS + "inline-runtime.yaml"};
    Run json = render("-o", "json", yamlArgs[0], yamlArgs[1], yamlArgs[2], yamlArgs[3]);

    assertSucceeded(json);
    JsonNode list = new ObjectMapper().readTree(json.out());
    assertThat(list.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(list.path("kind").asText()).isEqualTo("List");
    assertThat(list.path("items")).containsExactlyElementsOf(Yaml.trees(render(yamlArgs).out()));
  }

  @Test
  void aDeprecatedClusterTrainingRuntimeGivesAWarningAndStillRenders(@TempDir Path tmp) throws Exception {
    Path input = tmp.resolve("deprecated.yaml");
    String runtime = Files.readString(Path.of(INPUTS + "dir/a-runtime.yaml"))
        .replace("  name: plain\n", "  name: plain\n  labels:\n    trainer.kubeflow.org/support: deprecated\n");
    Files.writeString(input, runtime + "---\n" + Files.readString(Path.of(INPUTS + "dir/a-trainjob.yaml")));

    Run run = render("-f", input.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEqualTo("Warning: TrainJob default/first: Referenced ClusterTrainingRuntime \"plain\" is "
        + "deprecated and will be removed in a future release of Kubeflow Trainer. See runtime deprecation policy: "
        + "https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html#runtime-deprecation-policy\n");
    assertThat(Yaml.trees(run.out())).extracting(RenderCommandTest::kindAndName)
        .containsExactly("JobSet default/first");
  }

  @Test
  void aTrainJobManagedByAnotherControllerRendersNothing(@TempDir Path tmp) throws Exception {
    Path input = tmp.resolve("multikueue.yaml");
    Files.writeString(input, Files.readString(Path.of(INPUTS + "torch-trainjob.yaml"))
        + "  managedBy: kueue.x-k8s.io/multikueue\n");

    Run run = render("-f", input.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("Warning: TrainJob default/mnist: spec.managedBy is kueue.x-k8s.io/multikueue, "
        + "so this operator creates nothing for it\n");
  }

  static Stream<Arguments> invalidInputs() {
    String dir = INPUTS + "invalid/";
    return Stream.of(
        Arguments.of("a TrainJob with a reserved env is rejected by the torch plugin's validation",
            dir + "reserved-env.yaml", List.of(
                "TrainJob default/reserved-env: spec.trainer.env: Invalid value: [{\"name\":\"PET_NNODES\","
                    + "\"value\":\"3\"}]: must not have reserved envs, invalid envs configured: [PET_NNODES]")),
        Arguments.of("a runtime that does not exist, in the TrainJob's namespace or in the cluster, or of a "
            + "foreign kind is an error of spec.runtimeRef",
            dir + "unknown-runtime.yaml", List.of(
                "TrainJob team-a/missing-runtime: spec.runtimeRef: Not found: \"no-such-runtime\": specified "
                    + "clusterTrainingRuntime must be created before the TrainJob is created",
                "TrainJob team-a/missing-namespaced-runtime: spec.runtimeRef: Not found: \"torch-distributed\": "
                    + "specified trainingRuntime must be created before the TrainJob is created",
                "TrainJob default/foreign-runtime: spec.runtimeRef: Unsupported value: unsupported runtime: "
                    + "MyRuntime.example.com")),
        Arguments.of("unparsable YAML is an error of the file, at the position the parser names",
            dir + "bad-yaml.yaml", List.of(
                dir + "bad-yaml.yaml: invalid YAML at line 4, column 7: while parsing a flow mapping; "
                    + "expected ',' or '}', but got :")),
        Arguments.of("unknown fields, values of the wrong type and a missing name are errors of the field",
            dir + "bad-fields.yaml", List.of(
                "TrainJob default/typo: spec.trainr: unknown field",
                "TrainJob default/wrong-type: spec.trainer.numNodes: Invalid value: \"two\": must be of type integer",
                dir + "bad-fields.yaml, document 3: TrainJob: metadata.name: Required value: name is required")),
        Arguments.of("kinds other than TrainJob and the runtimes, and documents that are no objects, are errors",
            dir + "other-kinds.yaml", List.of(
                dir + "other-kinds.yaml, document 1: v1 ConfigMap is not supported; render reads "
                    + "trainer.kubeflow.org/v1alpha1 TrainJob, TrainingRuntime and ClusterTrainingRuntime",
                dir + "other-kinds.yaml, document 2: trainer.kubeflow.org/v1beta1 TrainJob is not supported; render "
                    + "reads trainer.kubeflow.org/v1alpha1 TrainJob, TrainingRuntime and ClusterTrainingRuntime",
                dir + "other-kinds.yaml, document 3: not a Kubernetes object (a YAML mapping)")),
        Arguments.of("a TrainJob defined twice is an error, the default namespace counting as given",
            dir + "duplicates.yaml", List.of(
                "TrainJob default/twice: defined more than once (" + dir + "duplicates.yaml, document 1; " + dir
                    + "duplicates.yaml, document 2)")),
        Arguments.of("what the CRDs' schemas and CEL rules reject is rejected, with kube-apiserver's messages",
            dir + "schema.yaml", List.of(
                "TrainJob.trainer.kubeflow.org \"1jobname\" is invalid: <nil>: Invalid value: \"object\": "
                    + "metadata.name must match RFC 1035 DNS label format",
                "TrainJob.trainer.kubeflow.org \"negative\" is invalid: spec.trainer.numNodes: Invalid value: -1: "
                    + "spec.trainer.numNodes in body should be greater than or equal to " + numNodesMinimum(),
                "TrainJob.trainer.kubeflow.org \"bad-uri\" is invalid: spec.initializer.dataset.storageUri: Invalid "
                    + "value: \"string\": storageUri may be empty, or it must be a valid URI (scheme://...)",
                "TrainingRuntime.trainer.kubeflow.org \"two-policies\" is invalid: spec.mlPolicy: Invalid value: "
                    + "\"object\": Only one of the policy can be configured",
                "TrainJob.trainer.kubeflow.org \"2wrongs\" is invalid: [spec.trainer.numNodes: Invalid value: -1: "
                    + "spec.trainer.numNodes in body should be greater than or equal to " + numNodesMinimum()
                    + ", <nil>: Invalid value: \"object\": metadata.name must match RFC 1035 DNS label format, "
                    + "spec.initializer.dataset.storageUri: Invalid value: \"string\": storageUri may be empty, or "
                    + "it must be a valid URI (scheme://...)]")),
        Arguments.of("a file that does not exist is an error of its path",
            dir + "no-such-file.yaml", List.of(dir + "no-such-file.yaml: no such file or directory")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidInputs")
  void invalidInputFailsWithOneLinePerErrorAndNoOutput(String name, String path, List<String> errors) {
    Run run = render("-f", path);

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines()).containsExactlyElementsOf(errors);
  }

  /** The TrainJob CRD's minimum of numNodes (the message follows the API's markers). */
  private static long numNodesMinimum() {
    try (var in = RenderCommandTest.class.getClassLoader()
        .getResourceAsStream("META-INF/fabric8/trainjobs.trainer.kubeflow.org-v1.yml")) {
      var crd = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(in,
          io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class);
      return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec")
          .getProperties().get("trainer").getProperties().get("numNodes").getMinimum().longValue();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Stream<Arguments> usageErrors() {
    return Stream.of(
        Arguments.of("render without -f", List.of("render")),
        Arguments.of("-f without a path", List.of("render", "-f")),
        Arguments.of("an unknown output format", List.of("render", "-o", "xml", "-f", INPUTS + "torch-trainjob.yaml")),
        Arguments.of("an unknown option", List.of("render", "--bogus", "-f", INPUTS + "torch-trainjob.yaml")));
  }

  @ParameterizedTest(name = "{0} is a usage error")
  @MethodSource("usageErrors")
  void usageErrorsExitWithTwo(String name, List<String> args) {
    Run run = TestingCli.run(args.toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("Usage: trainer-operator render");
  }

  private static Run render(String... args) {
    return TestingCli.run(Stream.concat(Stream.of("render", NO_PLUGINS), Stream.of(args)).toArray(String[]::new));
  }

  private static void assertSucceeded(Run run) {
    assertThat(run.err()).as("stderr").isEmpty();
    assertThat(run.exitCode()).isZero();
  }

  private static String kindAndName(JsonNode object) {
    return object.path("kind").asText() + " " + object.path("metadata").path("namespace").asText() + "/"
        + object.path("metadata").path("name").asText();
  }

  private static String decode(JsonNode base64) {
    return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.UTF_8);
  }
}
