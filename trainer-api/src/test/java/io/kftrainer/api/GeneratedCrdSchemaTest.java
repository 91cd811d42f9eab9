package io.kftrainer.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ListAssert;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CRDs generated from the model (read back from {@code META-INF/fabric8} on the classpath) carry upstream's
 * validation: required fields, defaults, bounds, CEL rules, list-map keys, printer columns and subresources.
 */
class GeneratedCrdSchemaTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final Tuple IMMUTABLE = tuple("self == oldSelf", "field is immutable");

  static CustomResourceDefinition crd(String name) {
    String resource = "/META-INF/fabric8/" + name + "-v1.yml";
    try (InputStream in = GeneratedCrdSchemaTest.class.getResourceAsStream(resource)) {
      assertThat(in).as("generated CRD %s on the classpath", resource).isNotNull();
      return SERIALIZATION.unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static CustomResourceDefinitionVersion onlyVersion(CustomResourceDefinition crd) {
    assertThat(crd.getSpec().getVersions()).hasSize(1);
    return crd.getSpec().getVersions().get(0);
  }

  /** The schema at a dotted path below the root; a {@code []} suffix steps into the array items. */
  static JSONSchemaProps at(CustomResourceDefinition crd, String path) {
    JSONSchemaProps node = onlyVersion(crd).getSchema().getOpenAPIV3Schema();
    if (path.isEmpty()) {
      return node;
    }
    for (String segment : path.split("\\.")) {
      boolean items = segment.endsWith("[]");
      String name = items ? segment.substring(0, segment.length() - 2) : segment;
      assertThat(node.getProperties().keySet()).as("properties at %s", path).contains(name);
      node = node.getProperties().get(name);
      if (items) {
        node = node.getItems().getSchema();
      }
    }
    return node;
  }

  static ListAssert<Tuple> rules(JSONSchemaProps schema) {
    List<ValidationRule> rules = schema.getXKubernetesValidations();
    assertThat(rules).as("x-kubernetes-validations").isNotNull();
    List<Tuple> pairs = rules.stream().map(r -> tuple(r.getRule(), r.getMessage())).toList();
    return assertThat(pairs);
  }

  static void assertListMap(JSONSchemaProps schema, String... keys) {
    assertThat(schema.getType()).isEqualTo("array");
    assertThat(schema.getXKubernetesListType()).isEqualTo("map");
    assertThat(schema.getXKubernetesListMapKeys()).containsExactly(keys);
  }

  static JsonNode defaultOf(JSONSchemaProps schema) {
    assertThat(schema.getDefault()).as("default").isNotNull();
    return schema.getDefault();
  }

  @ParameterizedTest(name = "{0}: every list-map key is a required or defaulted scalar, as the API server demands")
  @ValueSource(strings = {"trainjobs.trainer.kubeflow.org", "trainingruntimes.trainer.kubeflow.org",
      "clustertrainingruntimes.trainer.kubeflow.org", "jobsets.jobset.x-k8s.io"})
  void listMapKeysAreRequiredOrDefaulted(String name) {
    List<String> problems = new ArrayList<>();
    checkListMaps("", onlyVersion(crd(name)).getSchema().getOpenAPIV3Schema(), problems);
    assertThat(problems).isEmpty();
  }

  private static void checkListMaps(String path, JSONSchemaProps schema, List<String> problems) {
    if (schema == null) {
      return;
    }
    if ("map".equals(schema.getXKubernetesListType())) {
      JSONSchemaProps item = schema.getItems() == null ? null : schema.getItems().getSchema();
      if (item == null || schema.getXKubernetesListMapKeys().isEmpty()) {
        problems.add(path + ": list-map without item schema or keys");
      } else {
        for (String key : schema.getXKubernetesListMapKeys()) {
          JSONSchemaProps keySchema = item.getProperties().get(key);
          if (keySchema == null) {
            problems.add(path + ": key " + key + " is no item property");
          } else if (!item.getRequired().contains(key) && keySchema.getDefault() == null) {
            problems.add(path + ": key " + key + " is neither required nor defaulted");
          } else if (List.of("object", "array").contains(keySchema.getType())) {
            problems.add(path + ": key " + key + " is not a scalar");
          }
        }
      }
    }
    schema.getProperties().forEach((name, child) -> checkListMaps(path + "." + name, child, problems));
    if (schema.getItems() != null) {
      checkListMaps(path + "[]", schema.getItems().getSchema(), problems);
    }
    if (schema.getAdditionalProperties() != null) {
      checkListMaps(path + "{}", schema.getAdditionalProperties().getSchema(), problems);
    }
  }

  @Nested
  class TrainJobCrd {

    private final CustomResourceDefinition crd = crd("trainjobs.trainer.kubeflow.org");

    @Test
    void namesScopeVersionAndStatusSubresource() {
      assertThat(crd.getMetadata().getName()).isEqualTo("trainjobs.trainer.kubeflow.org");
      assertThat(crd.getSpec().getGroup()).isEqualTo("trainer.kubeflow.org");
      assertThat(crd.getSpec().getNames().getKind()).isEqualTo("TrainJob");
      assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("trainjobs");
      assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
      CustomResourceDefinitionVersion version = onlyVersion(crd);
      assertThat(version.getName()).isEqualTo("v1alpha1");
      assertThat(version.getServed()).isTrue();
      assertThat(version.getStorage()).isTrue();
      assertThat(version.getSubresources().getStatus()).isNotNull();
    }

    @Test
    void printerColumnsStateRestartsProgressAndAge() {
      assertThat(onlyVersion(crd).getAdditionalPrinterColumns())
          .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getJsonPath,
              CustomResourceColumnDefinition::getType)
          .containsExactly(
              tuple("State", ".status.conditions[-1:].type", "string"),
              tuple("Restarts", ".metadata.annotations.kftrainer\\.io/restarts", "string"),
              tuple("Progress", ".status.trainerStatus.progressPercentage", "integer"),
              tuple("Age", ".metadata.creationTimestamp", "date"));
    }

    @Test
    void nameRulesSitAtTheTopOfTheSchema() {
      rules(at(crd, "")).containsExactly(
          tuple("self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
              "metadata.name must match RFC 1035 DNS label format"),
          tuple("size(self.metadata.name) <= 63", "metadata.name must be no more than 63 characters"));
    }

    @ParameterizedTest(name = "spec.{0} is immutable")
    @ValueSource(strings = {"runtimeRef", "initializer", "trainer", "activeDeadlineSeconds"})
    void immutableSpecFields(String field) {
      rules(at(crd, "spec." + field)).containsExactly(IMMUTABLE);
    }

    @Test
    void runtimeRefIsRequiredAndDefaulted() {
      assertThat(at(crd, "spec").getRequired()).containsExactly("runtimeRef");
      assertThat(at(crd, "spec.runtimeRef").getRequired()).containsExactly("name");
      assertThat(at(crd, "spec.runtimeRef.name").getMinLength()).isEqualTo(1L);
      assertThat(at(crd, "spec.runtimeRef.name").getMaxLength()).isEqualTo(253L);
      assertThat(defaultOf(at(crd, "spec.runtimeRef.apiGroup")).asText()).isEqualTo("trainer.kubeflow.org");
      assertThat(defaultOf(at(crd, "spec.runtimeRef.kind")).asText()).isEqualTo("ClusterTrainingRuntime");
    }

    @Test
    void managedByIsDefaultedRestrictedAndImmutable() {
      JSONSchemaProps managedBy = at(crd, "spec.managedBy");
      assertThat(defaultOf(managedBy).asText()).isEqualTo("trainer.kubeflow.org/trainjob-controller");
      assertThat(managedBy.getMaxLength()).isEqualTo(253L);
      rules(managedBy).containsExactlyInAnyOrder(
          tuple("self in ['trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue']",
              "ManagedBy must be trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue if set"),
          IMMUTABLE);
    }

    @Test
    void suspendDefaultsToFalseAndDeadlineIsPositive() {
      assertThat(defaultOf(at(crd, "spec.suspend")).isBoolean()).isTrue();
      assertThat(defaultOf(at(crd, "spec.suspend")).asBoolean()).isFalse();
      assertThat(at(crd, "spec.activeDeadlineSeconds").getMinimum()).isEqualTo(1.0);
    }

    @Test
    void trainerBoundsAndNumProcPerNode() {
      assertThat(at(crd, "spec.trainer.numNodes").getMinimum()).isEqualTo(0.0);
      assertThat(at(crd, "spec.trainer.image").getMaxLength()).isEqualTo(500L);
      assertThat(at(crd, "spec.trainer.command").getXKubernetesListType()).isEqualTo("atomic");
      assertThat(at(crd, "spec.trainer.args").getMaxItems()).isEqualTo(128L);
      assertThat(at(crd, "spec.trainer.args[]").getMaxLength()).isEqualTo(1_048_576L);
      assertListMap(at(crd, "spec.trainer.env"), "name");

      // no CEL rule, as upstream's: the webhook checks it (a rule fails to evaluate on kube-apiserver for a string
      // it does not list, and its error hid the webhook's message)
      JSONSchemaProps numProc = at(crd, "spec.trainer.numProcPerNode");
      assertThat(numProc.getXKubernetesIntOrString()).isTrue();
      assertThat(numProc.getXKubernetesValidations()).isNullOrEmpty();
    }

    @ParameterizedTest(name = "spec.initializer.{0}.storageUri must be empty or a URI")
    @ValueSource(strings = {"dataset", "model"})
    void storageUriFormat(String initializer) {
      JSONSchemaProps storageUri = at(crd, "spec.initializer." + initializer + ".storageUri");
      assertThat(storageUri.getMaxLength()).isEqualTo(2048L);
      rules(storageUri).containsExactly(tuple("self == '' || self.matches('^[A-Za-z][A-Za-z0-9+.-]*://.+$')",
          "storageUri may be empty, or it must be a valid URI (scheme://...)"));
      assertListMap(at(crd, "spec.initializer." + initializer + ".env"), "name");
      assertThat(at(crd, "spec.initializer." + initializer + ".secretRef").getProperties().keySet()).contains("name");
    }

    @Test
    void runtimePatchesAreKeyedByManager() {
      JSONSchemaProps patches = at(crd, "spec.runtimePatches");
      assertListMap(patches, "manager");
      assertThat(patches.getMaxItems()).isEqualTo(16L);
      assertThat(at(crd, "spec.runtimePatches[]").getRequired()).containsExactly("manager");
      rules(at(crd, "spec.runtimePatches[].manager")).containsExactly(IMMUTABLE);
      assertThat(at(crd, "spec.runtimePatches[].time").getFormat()).isEqualTo("date-time");
    }

    @Test
    void runtimePatchesReachThePodSpecPatch() {
      String template = "spec.runtimePatches[].trainingRuntimeSpec.template";
      assertThat(at(crd, template + ".metadata").getProperties().keySet())
          .containsExactlyInAnyOrder("annotations", "finalizers", "labels", "name", "namespace");
      assertListMap(at(crd, template + ".spec.replicatedJobs"), "name");
      assertThat(at(crd, template + ".spec.replicatedJobs[]").getRequired()).containsExactly("name");

      String pod = template + ".spec.replicatedJobs[].template.spec.template";
      assertThat(at(crd, pod + ".metadata").getProperties().keySet()).contains("labels", "annotations");
      assertThat(at(crd, pod + ".spec").getProperties().keySet())
          .containsExactlyInAnyOrder("serviceAccountName", "volumes",
          "initContainers", "containers", "imagePullSecrets", "securityContext", "nodeSelector", "affinity",
          "tolerations", "schedulingGates", "terminationGracePeriodSeconds");
      for (String immutable : List.of("serviceAccountName", "volumes", "initContainers", "containers",
          "imagePullSecrets", "securityContext", "terminationGracePeriodSeconds")) {
        rules(at(crd, pod + ".spec." + immutable)).as(immutable).containsExactly(IMMUTABLE);
      }
      for (String mutable : List.of("nodeSelector", "affinity", "tolerations", "schedulingGates")) {
        assertThat(at(crd, pod + ".spec." + mutable).getXKubernetesValidations()).as(mutable).isNullOrEmpty();
      }
      assertListMap(at(crd, pod + ".spec.containers"), "name");
      assertThat(at(crd, pod + ".spec.containers[]").getProperties().keySet())
          .containsExactlyInAnyOrder("name", "env", "volumeMounts", "securityContext");
      assertThat(at(crd, pod + ".spec.containers[]").getRequired()).containsExactly("name");
      assertListMap(at(crd, pod + ".spec.containers[].env"), "name");
      assertThat(at(crd, pod + ".spec.tolerations").getXKubernetesListType()).isEqualTo("atomic");
    }

    @Test
    void statusShape() {
      JSONSchemaProps status = at(crd, "status");
      assertThat(status.getMinProperties()).isEqualTo(1L);
      assertListMap(at(crd, "status.conditions"), "type");
      assertThat(at(crd, "status.conditions").getMaxItems()).isEqualTo(8L);
      assertThat(at(crd, "status.conditions[]").getRequired())
          .containsExactlyInAnyOrder("type", "status", "reason", "message", "lastTransitionTime");
      assertListMap(at(crd, "status.jobsStatus"), "name");
      assertThat(at(crd, "status.jobsStatus[]").getRequired())
          .containsExactlyInAnyOrder("name", "ready", "succeeded", "failed", "active", "suspended");
      assertThat(at(crd, "status.trainerStatus.progressPercentage").getMaximum()).isEqualTo(100.0);
      rules(at(crd, "status.trainerStatus")).containsExactly(
          tuple("has(self.lastUpdatedTime)", "lastUpdatedTime is required when trainerStatus is present"));
    }
  }

  @Nested
  class TrainingRuntimeCrds {

    private final CustomResourceDefinition namespaced = crd("trainingruntimes.trainer.kubeflow.org");
    private final CustomResourceDefinition cluster = crd("clustertrainingruntimes.trainer.kubeflow.org");

    @Test
    void scopesNamesAndNoStatus() {
      assertThat(namespaced.getSpec().getScope()).isEqualTo("Namespaced");
      assertThat(namespaced.getSpec().getNames().getPlural()).isEqualTo("trainingruntimes");
      assertThat(cluster.getSpec().getScope()).isEqualTo("Cluster");
      assertThat(cluster.getSpec().getNames().getPlural()).isEqualTo("clustertrainingruntimes");
      assertThat(cluster.getSpec().getNames().getKind()).isEqualTo("ClusterTrainingRuntime");
      for (CustomResourceDefinition crd : List.of(namespaced, cluster)) {
        assertThat(onlyVersion(crd).getName()).isEqualTo("v1alpha1");
        assertThat(onlyVersion(crd).getSubresources()).isNull();
        assertThat(at(crd, "").getProperties().keySet()).doesNotContain("status");
      }
    }

    @Test
    void bothKindsShareOneSchema() {
      assertThat(at(cluster, "spec")).isEqualTo(at(namespaced, "spec"));
    }

    @Test
    void specAndTemplateMustNotBeEmpty() {
      assertThat(at(namespaced, "spec").getMinProperties()).isEqualTo(1L);
      assertThat(at(namespaced, "spec.template").getMinProperties()).isEqualTo(1L);
      assertThat(at(namespaced, "spec.template.metadata").getProperties().keySet())
          .containsExactlyInAnyOrder("annotations", "finalizers", "labels", "name", "namespace");
    }

    @Test
    void onlyOnePolicy() {
      rules(at(namespaced, "spec.mlPolicy")).containsExactly(tuple(
          "[has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)].filter(x, x).size() <= 1",
          "Only one of the policy can be configured"));
    }

    @Test
    void mpiDefaults() {
      String mpi = "spec.mlPolicy.mpi.";
      assertThat(defaultOf(at(namespaced, mpi + "numProcPerNode")).asInt()).isEqualTo(1);
      rules(at(namespaced, mpi + "numProcPerNode"))
          .containsExactly(tuple("self >= 1", "NumProcPerNode in mpiPolicy must be >= 1"));
      assertThat(defaultOf(at(namespaced, mpi + "mpiImplementation")).asText()).isEqualTo("OpenMPI");
      assertThat(at(namespaced, mpi + "mpiImplementation").getEnum()).extracting(JsonNode::asText)
          .containsExactly("OpenMPI", "Intel", "MPICH", "");
      assertThat(defaultOf(at(namespaced, mpi + "sshAuthMountPath")).asText()).isEqualTo("/root/.ssh");
      assertThat(defaultOf(at(namespaced, mpi + "runLauncherAsNode")).asBoolean()).isFalse();
      assertThat(defaultOf(at(namespaced, mpi + "runLauncherAsNode")).isBoolean()).isTrue();
    }

    @Test
    void otherPolicies() {
      assertThat(defaultOf(at(namespaced, "spec.mlPolicy.flux.numProcPerNode")).asInt()).isEqualTo(1);
      rules(at(namespaced, "spec.mlPolicy.flux.numProcPerNode"))
          .containsExactly(tuple("self >= 1", "NumProcPerNode in fluxPolicy must be >= 1"));
      assertThat(at(namespaced, "spec.mlPolicy.jax").getType()).isEqualTo("object");
      assertThat(at(namespaced, "spec.mlPolicy.xgboost").getType()).isEqualTo("object");
      assertThat(at(namespaced, "spec.mlPolicy.torch.numProcPerNode").getXKubernetesIntOrString()).isTrue();
      assertListMap(at(namespaced, "spec.mlPolicy.torch.envInjection.targets"), "jobName");
      JSONSchemaProps containerNames = at(namespaced, "spec.mlPolicy.torch.envInjection.targets[].containerNames");
      assertThat(containerNames.getXKubernetesListType()).isEqualTo("set");
      assertThat(containerNames.getMinItems()).isEqualTo(1L);
      assertThat(containerNames.getMaxItems()).isEqualTo(8L);
      rules(containerNames).extracting(t -> t.toList().get(0)).containsExactly("!self.exists(c, c == 'node')");
    }

    @Test
    void podGroupPolicyDefaults() {
      assertThat(defaultOf(at(namespaced, "spec.podGroupPolicy.coscheduling.scheduleTimeoutSeconds")).asInt())
          .isEqualTo(60);
      JSONSchemaProps mode = at(namespaced, "spec.podGroupPolicy.volcano.networkTopology.mode");
      assertThat(defaultOf(mode).asText()).isEqualTo("hard");
      assertThat(mode.getEnum()).extracting(JsonNode::asText).containsExactly("hard", "soft");
      assertThat(defaultOf(at(namespaced, "spec.podGroupPolicy.volcano.networkTopology.highestTierAllowed")).asInt())
          .isEqualTo(1);
    }

    @Test
    void jobSetTemplateFollowsJobSet() {
      String spec = "spec.template.spec";
      rules(at(namespaced, spec)).extracting(t -> t.toList().get(1))
          .containsExactly("StartupPolicy and DependsOn APIs are mutually exclusive");
      assertListMap(at(namespaced, spec + ".replicatedJobs"), "name");
      assertThat(at(namespaced, spec + ".replicatedJobs[]").getRequired())
          .containsExactlyInAnyOrder("name", "template");
      assertThat(defaultOf(at(namespaced, spec + ".replicatedJobs[].replicas")).asInt()).isEqualTo(1);
      assertThat(defaultOf(at(namespaced, spec + ".replicatedJobs[].groupName")).asText()).isEqualTo("default");
      assertListMap(at(namespaced, spec + ".replicatedJobs[].dependsOn"), "name");
      assertThat(at(namespaced, spec + ".replicatedJobs[].dependsOn[].status").getEnum()).extracting(JsonNode::asText)
          .containsExactly("Ready", "Complete");
      assertThat(at(namespaced, spec + ".replicatedJobs[].template.metadata").getProperties().keySet())
          .containsExactlyInAnyOrder("annotations", "finalizers", "labels", "name", "namespace");
      assertThat(at(namespaced, spec + ".replicatedJobs[].template.spec").getRequired()).containsExactly("template");
      assertThat(at(namespaced, spec + ".replicatedJobs[].template.spec.template.metadata").getProperties().keySet())
          .containsExactlyInAnyOrder("annotations", "finalizers", "labels", "name", "namespace");
      assertThat(at(namespaced, spec + ".replicatedJobs[].template.spec.template.spec.containers[].resources.limits")
          .getAdditionalProperties().getSchema().getXKubernetesIntOrString()).isTrue();
      for (String immutable : List.of("network", "successPolicy", "failurePolicy", "startupPolicy")) {
        rules(at(namespaced, spec + "." + immutable)).containsExactly(tuple("self == oldSelf", "Value is immutable"));
      }
      assertThat(at(namespaced, spec + ".successPolicy").getRequired()).containsExactly("operator");
      assertThat(at(namespaced, spec + ".failurePolicy.rules[]").getRequired())
          .containsExactlyInAnyOrder("name", "action");
    }
  }

  @Nested
  class JobSetCrd {

    private final CustomResourceDefinition crd = crd("jobsets.jobset.x-k8s.io");

    @Test
    void namesScopeVersionAndStatusSubresource() {
      assertThat(crd.getSpec().getGroup()).isEqualTo("jobset.x-k8s.io");
      assertThat(crd.getSpec().getNames().getPlural()).isEqualTo("jobsets");
      assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
      assertThat(onlyVersion(crd).getName()).isEqualTo("v1alpha2");
      assertThat(onlyVersion(crd).getSubresources().getStatus()).isNotNull();
      assertThat(onlyVersion(crd).getAdditionalPrinterColumns()).extracting(CustomResourceColumnDefinition::getName)
          .containsExactlyInAnyOrder("TerminalState", "Restarts", "Completed", "Suspended", "Age");
    }

    @Test
    void statusIsKeyedByName() {
      assertListMap(at(crd, "status.replicatedJobsStatus"), "name");
      assertListMap(at(crd, "status.conditions"), "type");
      assertThat(at(crd, "status.replicatedJobsStatus[]").getRequired())
          .containsExactlyInAnyOrder("name", "ready", "succeeded", "failed", "active", "suspended");
      assertThat(at(crd, "spec.ttlSecondsAfterFinished").getMinimum()).isEqualTo(0.0);
      assertThat(at(crd, "spec.volumeClaimPolicies[].templates[].metadata").getProperties().keySet())
          .containsExactlyInAnyOrder("annotations", "finalizers", "labels", "name", "namespace");
    }
  }
}
