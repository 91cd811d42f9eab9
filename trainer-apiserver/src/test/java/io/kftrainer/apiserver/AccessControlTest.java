package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication and authorization as a cluster's: no credentials or wrong ones answer 401 with a Status; the
 * kubeconfig's admin token is cluster-admin; a ServiceAccount token gets what RBAC bindings grant, nothing on
 * Secrets without one; the kubeconfig is private; plain HTTP only on loopback.
 */
class AccessControlTest {

  private EmbeddedApiServer server;
  private KubernetesClient admin;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    admin = server.newClient();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build())
        .create();
    admin.secrets().inNamespace("team").resource(new SecretBuilder().withNewMetadata().withName("tls").endMetadata()
        .addToStringData("tls.key", "private").build()).create();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aRequestWithoutCredentialsIsUnauthorized() {
    Http.Response answer = new Http(server, null).get("/api/v1/namespaces/team/secrets");

    assertThat(answer.code()).isEqualTo(401);
    assertThat(answer.json().path("kind").asText()).isEqualTo("Status");
    assertThat(answer.json().path("reason").asText()).isEqualTo("Unauthorized");
    assertThat(answer.body()).doesNotContain("private");
  }

  @Test
  void writesWithoutCredentialsAreRefusedAndCreateNothing() {
    Http.Response answer = new Http(server, null).post("/api/v1/namespaces/team/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"x\"}}");

    assertThat(answer.code()).isEqualTo(401);
    assertThat(admin.configMaps().inNamespace("team").withName("x").get()).isNull();
  }

  @Test
  void aWrongTokenIsUnauthorizedEvenForDiscovery() {
    assertThat(new Http(server, "not-the-token").get("/api").code()).isEqualTo(401);
    assertThat(new Http(server, server.bearerToken() + "x").get("/version").code()).isEqualTo(401);
    assertThat(new Http(server, null).get("/version").code()).isEqualTo(401);
  }

  @Test
  void healthProbesNeedNoCredentials() {
    assertThat(new Http(server, null).get("/readyz").code()).isNotIn(401, 403);
  }

  @Test
  void theAdminTokenIsClusterAdmin() {
    assertThat(new Http(server).get("/api/v1/namespaces/team/secrets").code()).isEqualTo(200);
    assertThat(admin.secrets().inNamespace("team").withName("tls").get()).isNotNull();
  }

  @Test
  void aServiceAccountWithoutBindingsMayDoNothingOnSecrets() {
    Http pod = new Http(server, serviceAccountToken("default"));

    Http.Response list = pod.get("/api/v1/namespaces/team/secrets");
    Http.Response get = pod.get("/api/v1/namespaces/team/secrets/tls");

    assertThat(list.code()).isEqualTo(403);
    assertThat(list.json().path("message").asText()).isEqualTo("secrets is forbidden: User "
        + "\"system:serviceaccount:team:default\" cannot list resource \"secrets\" in API group \"\" in the "
        + "namespace \"team\"");
    assertThat(get.code()).isEqualTo(403);
    assertThat(get.body()).doesNotContain("private");
    assertThat(pod.get("/api").code()).as("discovery").isEqualTo(200);
  }

  @Test
  void aServiceAccountGetsWhatItsRoleBindingGrantsInItsNamespaceOnly() {
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("other").endMetadata().build())
        .create();
    admin.rbac().roles().inNamespace("team").resource(new RoleBuilder().withNewMetadata().withName("cm-reader")
        .endMetadata().addNewRule().withApiGroups("").withResources("configmaps").withVerbs("get", "list")
        .endRule().build()).create();
    admin.rbac().roleBindings().inNamespace("team").resource(new RoleBindingBuilder().withNewMetadata()
        .withName("cm-reader").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "cm-reader")
        .addNewSubject().withKind("ServiceAccount").withName("default").withNamespace("team").endSubject().build())
        .create();
    Http pod = new Http(server, serviceAccountToken("default"));

    assertThat(pod.get("/api/v1/namespaces/team/configmaps").code()).isEqualTo(200);
    assertThat(pod.post("/api/v1/namespaces/team/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"x\"}}").code()).as("create is not granted").isEqualTo(403);
    assertThat(pod.get("/api/v1/namespaces/other/configmaps").code()).isEqualTo(403);
    assertThat(pod.get("/api/v1/namespaces/team/secrets").code()).isEqualTo(403);
  }

  /** As kube-apiserver: a list or watch by {@code fieldSelector=metadata.name} is a request for that one name. */
  @Test
  void resourceNamesCoverAListOrWatchOfThatOneObjectBySelector() {
    admin.rbac().roles().inNamespace("team").resource(new RoleBuilder().withNewMetadata().withName("one-cm")
        .endMetadata().addNewRule().withApiGroups("").withResources("configmaps").withResourceNames("lease-like")
        .withVerbs("get", "list", "watch").endRule().build()).create();
    admin.rbac().roleBindings().inNamespace("team").resource(new RoleBindingBuilder().withNewMetadata()
        .withName("one-cm").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "one-cm")
        .addNewSubject().withKind("ServiceAccount").withName("default").withNamespace("team").endSubject().build())
        .create();
    Http pod = new Http(server, serviceAccountToken("default"));

    assertThat(pod.get("/api/v1/namespaces/team/configmaps?fieldSelector=metadata.name%3Dlease-like").code())
        .isEqualTo(200);
    assertThat(pod.get("/api/v1/namespaces/team/configmaps?fieldSelector=metadata.name%3Dlease-like&watch=true"
        + "&timeoutSeconds=1").code()).isEqualTo(200);
    assertThat(pod.get("/api/v1/namespaces/team/configmaps?fieldSelector=metadata.name%3Dother").code())
        .isEqualTo(403);
    assertThat(pod.get("/api/v1/namespaces/team/configmaps").code()).as("every name").isEqualTo(403);
  }

  @Test
  void aClusterRoleBindingToAGroupGrantsClusterWide() {
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata()
        .withName("sa-view").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "view-cm")
        .addNewSubject().withKind("Group").withName("system:serviceaccounts").endSubject().build()).create();
    admin.rbac().clusterRoles().resource(new io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder()
        .withNewMetadata().withName("view-cm").endMetadata().addNewRule().withApiGroups("")
        .withResources("configmaps").withVerbs("*").endRule().build()).create();
    Http pod = new Http(server, serviceAccountToken("default"));

    assertThat(pod.get("/api/v1/configmaps").code()).isEqualTo(200);
    assertThat(pod.post("/api/v1/namespaces/team/configmaps", "application/json",
        "{\"metadata\":{\"name\":\"y\"}}").code()).isEqualTo(201);
  }

  @Test
  void aSubjectAccessReviewIsAnsweredByTheSameRbacAsRequests() {
    String review = """
        {"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{
         "user":"system:serviceaccount:team:default","groups":["system:serviceaccounts"],
         "resourceAttributes":{"namespace":"team","verb":"get","resource":"%s"}}}""";
    Http operator = new Http(server, server.bearerToken());
    admin.rbac().roles().inNamespace("team").resource(new RoleBuilder().withNewMetadata().withName("cm-reader")
        .endMetadata().addNewRule().withApiGroups("").withResources("configmaps").withVerbs("get").endRule().build())
        .create();
    admin.rbac().roleBindings().inNamespace("team").resource(new RoleBindingBuilder().withNewMetadata()
        .withName("cm-reader").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "cm-reader")
        .addNewSubject().withKind("ServiceAccount").withName("default").withNamespace("team").endSubject().build())
        .create();

    Http.Response secrets = operator.post("/apis/authorization.k8s.io/v1/subjectaccessreviews", "application/json",
        review.formatted("secrets"));
    Http.Response configMaps = operator.post("/apis/authorization.k8s.io/v1/subjectaccessreviews",
        "application/json", review.formatted("configmaps"));

    assertThat(secrets.code()).isEqualTo(201);
    assertThat(secrets.json().path("status").path("allowed").asBoolean()).isFalse();
    assertThat(configMaps.json().path("status").path("allowed").asBoolean()).isTrue();
    assertThat(operator.post("/apis/authorization.k8s.io/v1/subjectaccessreviews", "application/json",
        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{\"user\":\"x\"}}")
        .json().path("message").asText()).contains("exactly one of nonResourceAttributes or resourceAttributes");
  }

  @Test
  void aServiceAccountReviewsItselfAsItIs() {
    Http pod = new Http(server, serviceAccountToken("default"));

    Http.Response self = pod.post("/apis/authentication.k8s.io/v1/selfsubjectreviews", "application/json",
        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}");
    Http.Response mayReadSecrets = pod.post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        "application/json", "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
            + "\"spec\":{\"resourceAttributes\":{\"namespace\":\"team\",\"verb\":\"list\",\"resource\":\"secrets\"}}}");
    Http.Response rules = pod.post("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "application/json",
        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\",\"spec\":{\"namespace\":\"team\"}}");

    assertThat(self.json().path("status").path("userInfo").path("username").asText())
        .isEqualTo("system:serviceaccount:team:default");
    assertThat(mayReadSecrets.json().path("status").path("allowed").asBoolean()).isFalse();
    assertThat(rules.json().path("status").path("resourceRules").toString()).doesNotContain("secrets")
        .contains("selfsubjectaccessreviews");
  }

  @Test
  void theLoopbackListenerServesThisProcessOnlyWithItsOwnTokenAndRefusesOthers() throws Exception {
    io.fabric8.kubernetes.client.Config loopback = server.loopbackConfig();
    java.net.URI url = java.net.URI.create(loopback.getMasterUrl());
    java.net.http.HttpClient raw = java.net.http.HttpClient.newHttpClient();

    try (KubernetesClient inProcess = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(loopback)
        .build()) {
      assertThat(url.getScheme()).isEqualTo("http");
      assertThat(url.getHost()).isEqualTo("127.0.0.1");
      assertThat(loopback.getOauthToken()).isNotEqualTo(server.bearerToken());
      assertThat(inProcess.secrets().inNamespace("team").withName("tls").get().getData()).containsKey("tls.key");
    }
    assertThat(raw.send(java.net.http.HttpRequest.newBuilder(url.resolve("/api/v1/namespaces/team/secrets")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).as("no token").isEqualTo(401);
    assertThat(raw.send(java.net.http.HttpRequest.newBuilder(url.resolve("/api/v1/namespaces/team/secrets"))
        .header("Authorization", "Bearer " + serviceAccountToken("default")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).as("no binding").isEqualTo(403);
  }

  @Test
  void aTokenOfADeletedServiceAccountNoLongerAuthenticates() {
    String token = serviceAccountToken("default");
    admin.serviceAccounts().inNamespace("team").withName("default").delete();

    assertThat(new Http(server, token).get("/api").code()).isEqualTo(401);
  }

  @Test
  void aTokenForAnotherAudienceDoesNotAuthenticate() {
    String token = admin.serviceAccounts().inNamespace("team").withName("default").tokenRequest(
        new TokenRequestBuilder().withNewSpec().withAudiences("trainer.kubeflow.org/status").endSpec().build())
        .getStatus().getToken();

    assertThat(new Http(server, token).get("/api").code()).isEqualTo(401);
  }

  @Test
  void theKubeconfigCarriesTheTokenAndOnlyItsOwnerMayReadIt(@TempDir Path dir) throws Exception {
    Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));

    assertThat(Files.getPosixFilePermissions(kubeconfig)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.readString(kubeconfig)).contains("token: " + server.bearerToken());
    try (KubernetesClient fromFile = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
        io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(kubeconfig))).build()) {
      assertThat(fromFile.secrets().inNamespace("team").withName("tls").get()).isNotNull();
    }
  }

  @Test
  void kubectlUsesTheKubeconfigsCredentials(@TempDir Path dir) {
    Kubectl kubectl = new Kubectl(server, dir);

    assertThat(kubectl.ok("get", "secrets", "-n", "team", "-o", "name")).contains("secret/tls");
  }

  @Test
  void aClientWithoutTheTokenGetsUnauthorized() {
    io.fabric8.kubernetes.client.Config config = server.config();
    config.setOauthToken(null);
    try (KubernetesClient anonymous = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config)
        .build()) {
      assertThatThrownBy(() -> anonymous.configMaps().inNamespace("team").resource(new ConfigMapBuilder()
          .withNewMetadata().withName("z").endMetadata().build()).create())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(401));
    }
  }

  @Test
  void plainHttpIsRefusedOnAnAddressOtherThanLoopback() {
    assertThatThrownBy(() -> EmbeddedApiServer.builder().host("0.0.0.0").https(false).start())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requires HTTPS");
  }

  @Test
  void aBearerTokenCanBeKeptAcrossRestarts() {
    try (EmbeddedApiServer again = EmbeddedApiServer.builder().bearerToken(server.bearerToken()).start()) {
      assertThat(new Http(again, server.bearerToken()).get("/api").code()).isEqualTo(200);
    }
  }

  private String serviceAccountToken(String name) {
    await().atMost(Duration.ofSeconds(10)).until(() ->
        admin.serviceAccounts().inNamespace("team").withName(name).get() != null);
    return admin.serviceAccounts().inNamespace("team").withName(name).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().endSpec().build()).getStatus().getToken();
  }
}
