package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ProjectedVolumeSource;
import io.fabric8.kubernetes.api.model.ProjectedVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.apiserver.EmbeddedApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Projected volumes as the kubelet writes them, against the embedded API server: the ServiceAccount token (a real
 * TokenRequest, which a TokenReview accepts for its audience), ConfigMap and Secret items, downward API fields, and
 * the token's renewal at 80% of its lifetime.
 */
class ProjectedVolumesTest {

  private static final String AUDIENCE = "trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs/a/status";

  @TempDir
  Path dir;
  private EmbeddedApiServer server;
  private KubernetesClient client;
  private ProjectedVolumes volumes;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    client = server.newClient();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build())
        .create();
    await().atMost(Duration.ofSeconds(10)).until(() ->
        client.serviceAccounts().inNamespace("team").withName("default").get() != null);
    client.configMaps().inNamespace("team").resource(new ConfigMapBuilder().withNewMetadata().withName("a-tls-config")
        .endMetadata().withData(Map.of("ca.crt", "CA", "other", "x")).build()).create();
    client.secrets().inNamespace("team").resource(new SecretBuilder().withNewMetadata().withName("creds")
        .endMetadata().withStringData(Map.of("user", "u")).build()).create();
  }

  @AfterEach
  void stop() {
    if (volumes != null) {
      volumes.close();
    }
    server.close();
  }

  @Test
  void writesEverySourceAndATokenTheApiServerAcceptsForItsAudience() throws Exception {
    volumes = new ProjectedVolumes(client, Clock.systemUTC());
    Pod pod = pod();

    volumes.write("team/a-node-0-0", pod, "127.0.1.1", source(), dir);

    assertThat(Files.readString(dir.resolve("ca.crt"))).isEqualTo("CA");
    assertThat(dir.resolve("other")).doesNotExist();
    assertThat(Files.readString(dir.resolve("secret/user"))).isEqualTo("u");
    assertThat(Files.readString(dir.resolve("podname"))).isEqualTo("a-node-0-0");
    TokenReview review = review(Files.readString(dir.resolve("token")));
    assertThat(review.getStatus().getAuthenticated()).isTrue();
    assertThat(review.getStatus().getUser().getUsername()).isEqualTo("system:serviceaccount:team:default");
    assertThat(review.getStatus().getUser().getExtra().get("authentication.kubernetes.io/pod-name"))
        .containsExactly("a-node-0-0");
  }

  @Test
  void theTokenIsRenewedAtEightyPercentOfItsLifetimeUntilThePodIsForgotten() throws Exception {
    // the kubelet's clock 3599 s ahead: a 3600 s token has one second left, so it is renewed after ~0.8 s
    volumes = new ProjectedVolumes(client, Clock.offset(Clock.systemUTC(), Duration.ofSeconds(3599)));
    volumes.write("team/a-node-0-0", pod(), "127.0.1.1", source(), dir);
    String first = Files.readString(dir.resolve("token"));

    await().atMost(Duration.ofSeconds(10)).until(() -> !Files.readString(dir.resolve("token")).equals(first));
    assertThat(review(Files.readString(dir.resolve("token"))).getStatus().getAuthenticated()).isTrue();

    volumes.forget("team/a-node-0-0");
    String last = Files.readString(dir.resolve("token"));
    assertThat(last).isNotEmpty();
  }

  @Test
  void aMissingConfigMapIsAMountError() {
    volumes = new ProjectedVolumes(client, Clock.systemUTC());
    ProjectedVolumeSource missing = new ProjectedVolumeSourceBuilder().addNewSource().withNewConfigMap()
        .withName("absent").endConfigMap().endSource().build();

    assertThatThrownBy(() -> volumes.write("team/a-node-0-0", pod(), "127.0.1.1", missing, dir))
        .isInstanceOf(ContainerEnv.ConfigError.class).hasMessage("configmap \"absent\" not found");
  }

  private static ProjectedVolumeSource source() {
    return new ProjectedVolumeSourceBuilder()
        .addNewSource().withNewServiceAccountToken().withAudience(AUDIENCE).withExpirationSeconds(3600L)
        .withPath("token").endServiceAccountToken().endSource()
        .addNewSource().withNewConfigMap().withName("a-tls-config").addNewItem().withKey("ca.crt").withPath("ca.crt")
        .endItem().endConfigMap().endSource()
        .addNewSource().withNewSecret().withName("creds").addNewItem().withKey("user").withPath("secret/user")
        .endItem().endSecret().endSource()
        .addNewSource().withNewDownwardAPI().addNewItem().withPath("podname").withNewFieldRef()
        .withFieldPath("metadata.name").endFieldRef().endItem().endDownwardAPI().endSource()
        .build();
  }

  private Pod pod() {
    Pod existing = client.pods().inNamespace("team").withName("a-node-0-0").get();
    return existing != null ? existing : client.pods().inNamespace("team").resource(new PodBuilder().withNewMetadata()
        .withName("a-node-0-0").endMetadata().withNewSpec().addNewContainer().withName("node").withImage("train")
        .endContainer().endSpec().build()).create();
  }

  private TokenReview review(String token) {
    return client.resource(new TokenReviewBuilder().withNewSpec().withToken(token).withAudiences(List.of(AUDIENCE))
        .endSpec().build()).create();
  }
}
