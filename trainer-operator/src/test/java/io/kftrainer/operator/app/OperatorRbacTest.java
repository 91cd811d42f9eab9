package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.operator.controller.TestCluster;
import io.kftrainer.operator.manifests.ManifestsTest;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RBAC of {@code manifests/base} allows every request the operator makes. The operator runs with leader
 * election through TrainJobs that exercise every kind of write (runtime snapshot, MPI Secret and ConfigMap,
 * PodGroup, JobSet apply and delete, status, Events); its own client records each request, which is then checked
 * against the rendered ClusterRole and Role (skipped without kubectl, like {@link ManifestsTest}). The same record
 * shows that the operator reads objects only through its informers.
 */
class OperatorRbacTest {

  private static final String NS = "rbac";

  @Test
  void theManifestsRbacAllowsEveryRequestOfTheOperator(@TempDir Path pluginsDir) throws Exception {
    ManifestsTest.RenderedRbac rbac = ManifestsTest.renderedRbac();
    List<Request> requests = new CopyOnWriteArrayList<>();
    try (TestCluster cluster = TestCluster.start();
        KubernetesClient recorded = new KubernetesClientBuilder().withConfig(cluster.server().config())
            .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("record", new Interceptor() {
              @Override
              public void before(BasicBuilder b, HttpRequest request, RequestTags tags) {
                Request.of(request.method(), request.uri()).ifPresent(requests::add);
              }
            }))
            .build()) {
      OperatorConfig config = TestCluster.config(pluginsDir)
          .withLeaderElection(new OperatorConfig.LeaderElection(true, OperatorConfig.DEFAULT_LEASE_NAME));
      TrainerOperator operator = TrainerOperator.builder(config, recorded).identity("rbac").build();
      operator.start();
      try {
        await().atMost(TestCluster.TIMEOUT).until(operator::isLeader);
        cluster.createRuntimes(NS);
        cluster.createTrainJob(NS, "torch", tj -> {
        });
        cluster.createTrainJob(NS, "mpi", tj -> tj.getSpec().getRuntimeRef().setName("mpi"));
        cluster.createTrainJob(NS, "gang", tj -> tj.getSpec().getRuntimeRef().setName("gang"));
        cluster.createTrainJob(NS, "deadline", tj -> tj.getSpec().setActiveDeadlineSeconds(1L));
        cluster.createTrainJob(NS, "missing", tj -> tj.getSpec().getRuntimeRef().setName("missing"));
        cluster.client().resource(cluster.client().getKubernetesSerialization().unmarshal("""
            apiVersion: trainer.kubeflow.org/v1alpha1
            kind: OptimizationJob
            metadata: {name: tune, namespace: rbac}
            spec:
              objectives: [{metric: loss}]
              parameters: [{name: lr, searchSpace: {uniform: {min: "0.1", max: "0.2"}}}]
              trainJobTemplate: {spec: {runtimeRef: {name: torch, kind: TrainingRuntime}}}
            """, OptimizationJob.class)).create();
        List.of("torch", "mpi", "gang", "tune-trial-0").forEach(name -> cluster.awaitJobSet(NS, name));
        cluster.awaitCondition(NS, "deadline", "Failed", "True");
        cluster.awaitCondition(NS, "missing", "Failed", "True");
        await().atMost(TestCluster.TIMEOUT).until(() -> cluster.jobSet(NS, "deadline").isEmpty());
      } finally {
        operator.stop();
        operator.awaitTermination(10, TimeUnit.SECONDS);
      }
    }

    Set<String> made = new TreeSet<>(requests.stream().map(Request::toString).toList());
    System.out.println("requests of the operator: " + made);
    assertThat(made).filteredOn(request -> request.startsWith("get "))
        .as("objects are read from the informers; only the Lease is read directly")
        .containsExactly("get leases.coordination.k8s.io");
    assertThat(made).contains("create configmaps", "patch jobsets.jobset.x-k8s.io", "delete jobsets.jobset.x-k8s.io",
        "patch trainjobs.trainer.kubeflow.org/status", "create events", "patch secrets",
        "patch podgroups.scheduling.x-k8s.io", "watch trainjobs.trainer.kubeflow.org",
        "create trainjobs.trainer.kubeflow.org", "patch optimizationjobs.trainer.kubeflow.org/status");
    assertThat(requests).allSatisfy(request -> assertThat(
        rbac.allows(request.group(), request.resource(), request.verb(), request.namespace(), request.name()))
        .as("RBAC allows %s", request.describe()).isTrue());
    assertThat(requests).extracting(Request::toString).as("the leader renews its Lease with a merge patch")
        .contains("patch leases.coordination.k8s.io");
  }

  /** A resource request as RBAC sees it. */
  private record Request(String verb, String group, String resource, String namespace, String name) {

    /**
     * The request to a resource path, or empty for discovery and for {@code selfsubjectrulesreviews}, which every
     * authenticated user may create (default ClusterRole {@code system:basic-user}).
     */
    static Optional<Request> of(String method, URI uri) {
      List<String> path = Arrays.stream(uri.getPath().split("/")).filter(s -> !s.isEmpty()).toList();
      int version = path.isEmpty() ? 0 : path.get(0).equals("api") ? 1 : path.get(0).equals("apis") ? 2 : -1;
      if (version < 1 || path.size() <= version + 1) {
        return Optional.empty();
      }
      String group = version == 1 ? "" : path.get(1);
      List<String> rest = path.subList(version + 1, path.size());
      String namespace = null;
      if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
        namespace = rest.get(1);
        rest = rest.subList(2, rest.size());
      }
      String resource = rest.get(0) + (rest.size() > 2 ? "/" + rest.get(2) : "");
      String name = rest.size() > 1 ? rest.get(1) : null;
      if (resource.equals("selfsubjectrulesreviews")) {
        return Optional.empty();
      }
      boolean watch = uri.getQuery() != null && uri.getQuery().contains("watch=true");
      if (name == null && method.equals("GET")) {
        name = namedBySelector(uri).orElse(null);
      }
      String verb = switch (method) {
        case "GET" -> rest.size() > 1 ? "get" : watch ? "watch" : "list";
        case "POST" -> "create";
        case "PUT" -> "update";
        case "PATCH" -> "patch";
        case "DELETE" -> rest.size() > 1 ? "delete" : "deletecollection";
        default -> method.toLowerCase();
      };
      return Optional.of(new Request(verb, group, resource, namespace, name));
    }

    /**
     * A list or watch of one object by {@code fieldSelector=metadata.name=...}, which kube-apiserver authorizes as a
     * request for that name (RequestInfoFactory), so that RBAC's {@code resourceNames} cover it.
     */
    private static Optional<String> namedBySelector(URI uri) {
      String query = uri.getQuery() == null ? "" : uri.getQuery();
      return Arrays.stream(query.split("&"))
          .filter(parameter -> parameter.startsWith("fieldSelector=metadata.name="))
          .map(parameter -> parameter.substring("fieldSelector=metadata.name=".length()))
          .filter(selected -> !selected.contains(","))
          .findFirst();
    }

    String describe() {
      return this + (namespace == null ? "" : " in " + namespace) + (name == null ? "" : " named " + name);
    }

    /** E.g. {@code patch trainjobs.trainer.kubeflow.org/status}. */
    @Override
    public String toString() {
      String[] parts = resource.split("/", 2);
      return verb + " " + parts[0] + (group.isEmpty() ? "" : "." + group) + (parts.length > 1 ? "/" + parts[1] : "");
    }
  }
}
