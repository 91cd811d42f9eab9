package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests of different users at the same time are each answered for their own caller: who the self reviews name,
 * and what they allow, never leak from one request to another running beside it.
 */
class ConcurrentCallersTest {

  private static final int THREADS = 8;
  private static final int REQUESTS_PER_THREAD = 60;

  private static final String SELF = """
      {"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}""";
  private static final String MAY_LIST_PODS = """
      {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview",
       "spec":{"resourceAttributes":{"namespace":"team","verb":"list","resource":"pods"}}}""";

  private EmbeddedApiServer server;
  private KubernetesClient admin;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    admin = server.newClient();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build())
        .create();
    admin.serviceAccounts().inNamespace("team").resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("reader").endMetadata().build()).create();
    admin.rbac().roles().inNamespace("team").resource(new RoleBuilder().withNewMetadata().withName("pod-reader")
        .endMetadata().addNewRule().withApiGroups("").withResources("pods").withVerbs("list").endRule().build())
        .create();
    admin.rbac().roleBindings().inNamespace("team").resource(new RoleBindingBuilder().withNewMetadata()
        .withName("pod-reader").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "pod-reader")
        .addNewSubject().withKind("ServiceAccount").withName("reader").withNamespace("team").endSubject().build())
        .create();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void everyAnswerIsForItsOwnCaller() throws Exception {
    List<Caller> callers = List.of(
        new Caller("system:serviceaccount:team:reader", true, new Http(server, serviceAccountToken("reader"))),
        new Caller("system:serviceaccount:team:default", false, new Http(server, serviceAccountToken("default"))));
    for (Caller caller : callers) {
      assertThat(caller.http.get("/api/v1/namespaces/team/pods").code()).as(caller.name)
          .isEqualTo(caller.mayListPods ? 200 : 403);
    }
    Queue<String> wrong = new ConcurrentLinkedQueue<>();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        Caller caller = callers.get(t % callers.size());
        threads.add(pool.submit(() -> {
          go.await();
          for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
            caller.ask(wrong);
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> thread : threads) {
        thread.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(wrong).as("answers for another caller, of %d", THREADS * REQUESTS_PER_THREAD * 2).isEmpty();
  }

  private record Caller(String name, boolean mayListPods, Http http) {

    /** A self review and a self access review, each answer checked against this caller. */
    void ask(Queue<String> wrong) {
      Http.Response self = http.post("/apis/authentication.k8s.io/v1/selfsubjectreviews", "application/json", SELF);
      String named = self.json().path("status").path("userInfo").path("username").asText();
      if (self.code() != 201 || !named.equals(name)) {
        wrong.add(name + " was told it is " + named + " (" + self.code() + ")");
      }
      Http.Response access = http.post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json",
          MAY_LIST_PODS);
      boolean allowed = access.json().path("status").path("allowed").asBoolean();
      if (access.code() != 201 || allowed != mayListPods) {
        wrong.add(name + " was told it may" + (allowed ? "" : " not") + " list pods (" + access.code() + ")");
      }
    }
  }

  private String serviceAccountToken(String name) {
    await().atMost(Duration.ofSeconds(10)).until(() ->
        admin.serviceAccounts().inNamespace("team").withName(name).get() != null);
    return admin.serviceAccounts().inNamespace("team").withName(name).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().endSpec().build()).getStatus().getToken();
  }
}
