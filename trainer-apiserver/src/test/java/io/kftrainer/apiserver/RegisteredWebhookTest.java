package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.kftrainer.apiserver.AdmissionHook;
import io.kftrainer.apiserver.AdmissionRequest;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When the API server calls a webhook: rules, scope, subresources, object and namespace selectors. */
class RegisteredWebhookTest {

  private static final RuleWithOperations TRAINJOB_WRITES = rule(List.of("CREATE", "UPDATE"),
      List.of("trainer.kubeflow.org"), List.of("v1alpha1"), List.of("trainjobs"), "Namespaced");
  private static final LabelSelector NOT_DISABLED = new LabelSelectorBuilder().addNewMatchExpression()
      .withKey("trainer.kubeflow.org/webhook-validation").withOperator("NotIn").withValues("disabled")
      .endMatchExpression().build();

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a create of the rule's resource matches",
            webhook(TRAINJOB_WRITES), trainJob(AdmissionRequest.Operation.CREATE, null, Map.of()), Map.of(), true),
        Arguments.of("an update matches a rule with UPDATE",
            webhook(TRAINJOB_WRITES), trainJob(AdmissionRequest.Operation.UPDATE, null, Map.of()), Map.of(), true),
        Arguments.of("an update does not match a rule of creates only",
            webhook(rule(List.of("CREATE"), List.of("trainer.kubeflow.org"), List.of("v1alpha1"),
                List.of("trainjobs"), null)),
            trainJob(AdmissionRequest.Operation.UPDATE, null, Map.of()), Map.of(), false),
        Arguments.of("a status update does not match the main resource",
            webhook(TRAINJOB_WRITES), trainJob(AdmissionRequest.Operation.UPDATE, "status", Map.of()), Map.of(),
            false),
        Arguments.of("a status update matches resource/status",
            webhook(rule(List.of("*"), List.of("*"), List.of("*"), List.of("trainjobs/status"), null)),
            trainJob(AdmissionRequest.Operation.UPDATE, "status", Map.of()), Map.of(), true),
        Arguments.of("a status update matches */*",
            webhook(rule(List.of("*"), List.of("*"), List.of("*"), List.of("*/*"), null)),
            trainJob(AdmissionRequest.Operation.UPDATE, "status", Map.of()), Map.of(), true),
        Arguments.of("a plain * matches every resource but no subresource",
            webhook(rule(List.of("*"), List.of("*"), List.of("*"), List.of("*"), null)),
            trainJob(AdmissionRequest.Operation.UPDATE, "status", Map.of()), Map.of(), false),
        Arguments.of("another group does not match",
            webhook(rule(List.of("*"), List.of("jobset.x-k8s.io"), List.of("*"), List.of("*"), null)),
            trainJob(AdmissionRequest.Operation.CREATE, null, Map.of()), Map.of(), false),
        Arguments.of("another version does not match",
            webhook(rule(List.of("*"), List.of("*"), List.of("v1"), List.of("*"), null)),
            trainJob(AdmissionRequest.Operation.CREATE, null, Map.of()), Map.of(), false),
        Arguments.of("a namespaced object does not match scope Cluster",
            webhook(rule(List.of("*"), List.of("*"), List.of("*"), List.of("*"), "Cluster")),
            trainJob(AdmissionRequest.Operation.CREATE, null, Map.of()), Map.of(), false),
        Arguments.of("a cluster-scoped object matches scope Cluster",
            webhook(rule(List.of("*"), List.of("*"), List.of("*"), List.of("*"), "Cluster")),
            runtime(Map.of()), Map.of(), true),
        Arguments.of("an object labelled out by a NotIn objectSelector does not match",
            webhook(TRAINJOB_WRITES, NOT_DISABLED, null),
            trainJob(AdmissionRequest.Operation.CREATE, null,
                Map.of("trainer.kubeflow.org/webhook-validation", "disabled")), Map.of(), false),
        Arguments.of("an object without the label matches a NotIn objectSelector",
            webhook(TRAINJOB_WRITES, NOT_DISABLED, null),
            trainJob(AdmissionRequest.Operation.CREATE, null, Map.of()), Map.of(), true),
        Arguments.of("a namespace without the selected label does not match",
            webhook(TRAINJOB_WRITES, null,
                new LabelSelectorBuilder().withMatchLabels(Map.of("team", "a")).build()),
            trainJob(AdmissionRequest.Operation.CREATE, null, Map.of()), Map.of("team", "b"), false),
        Arguments.of("a namespace with the selected label matches",
            webhook(TRAINJOB_WRITES, null,
                new LabelSelectorBuilder().withMatchLabels(Map.of("team", "a")).build()),
            trainJob(AdmissionRequest.Operation.CREATE, null, Map.of()), Map.of("team", "a"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(String name, RegisteredWebhook webhook, AdmissionRequest request, Map<String, String> namespaceLabels,
      boolean expected) {
    assertThat(webhook.matches(request, namespaceLabels)).isEqualTo(expected);
  }

  private static RegisteredWebhook webhook(RuleWithOperations rule) {
    return webhook(rule, null, null);
  }

  private static RegisteredWebhook webhook(RuleWithOperations rule, LabelSelector objectSelector,
      LabelSelector namespaceSelector) {
    return new RegisteredWebhook("config", "hook", AdmissionHook.Phase.VALIDATING, null, List.of(rule), null,
        io.kftrainer.apiserver.LabelSelector.of(objectSelector), io.kftrainer.apiserver.LabelSelector.of(namespaceSelector),
        0, "None", 0);
  }

  private static RuleWithOperations rule(List<String> operations, List<String> groups, List<String> versions,
      List<String> resources, String scope) {
    return new RuleWithOperationsBuilder().withOperations(operations).withApiGroups(groups)
        .withApiVersions(versions).withResources(resources).withScope(scope).build();
  }

  private static AdmissionRequest trainJob(AdmissionRequest.Operation operation, String subResource,
      Map<String, String> labels) {
    GenericKubernetesResource object = object("TrainJob", labels);
    return new AdmissionRequest("uid", operation, "trainer.kubeflow.org", "v1alpha1", "TrainJob", "trainjobs",
        subResource, "default", "job", object, operation == AdmissionRequest.Operation.UPDATE ? object : null, false);
  }

  private static AdmissionRequest runtime(Map<String, String> labels) {
    return new AdmissionRequest("uid", AdmissionRequest.Operation.CREATE, "trainer.kubeflow.org", "v1alpha1",
        "ClusterTrainingRuntime", "clustertrainingruntimes", null, null, "rt", object("ClusterTrainingRuntime",
        labels), null, false);
  }

  private static GenericKubernetesResource object(String kind, Map<String, String> labels) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion("trainer.kubeflow.org/v1alpha1");
    object.setKind(kind);
    object.setMetadata(new ObjectMetaBuilder().withName("x").withLabels(labels).build());
    return object;
  }
}
