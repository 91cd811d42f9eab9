package io.kftrainer.ui.testing;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The user the UI's tests limit to one namespace: a ServiceAccount bound there to a Role that reads TrainJobs, and
 * nothing else; on the embedded API server and on a real kube-apiserver alike.
 */
public final class OneNamespaceUser {

  private OneNamespaceUser() {
  }

  /**
   * Creates the ServiceAccount {@code name} of {@code namespace} (which must exist), its Role and RoleBinding.
   *
   * @return a token of it, valid for an hour
   */
  public static String create(KubernetesClient admin, String namespace, String name) {
    admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName(name).endMetadata().build()).serverSideApply();
    admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata()
        .withName(name + "-reads-trainjobs").endMetadata().withRules(new PolicyRuleBuilder()
            .withApiGroups("trainer.kubeflow.org").withResources("trainjobs").withVerbs("get", "list", "watch")
            .build()).build()).serverSideApply();
    admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
        .withName(name + "-reads-trainjobs").endMetadata().withNewRoleRef()
        .withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(name + "-reads-trainjobs").endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(name).withNamespace(namespace).endSubject().build())
        .serverSideApply();
    return admin.serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
  }
}
