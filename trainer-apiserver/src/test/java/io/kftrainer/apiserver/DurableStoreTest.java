package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The server's state in a data directory: what a restart on the same directory keeps, and what it refuses. */
class DurableStoreTest {

  @TempDir
  Path dir;
  private final List<EmbeddedApiServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(EmbeddedApiServer::close);
  }

  private EmbeddedApiServer start() {
    EmbeddedApiServer server = EmbeddedApiServer.builder().dataDirectory(dir.resolve("data")).start();
    servers.add(server);
    return server;
  }

  private static ConfigMap configMap(EmbeddedApiServer server, String name, String value) {
    return server.client().configMaps().inNamespace("d").resource(new ConfigMapBuilder().withNewMetadata()
        .withName(name).endMetadata().addToData("v", value).build()).createOr(e -> e.update());
  }

  private static long version(ConfigMap configMap) {
    return Long.parseLong(configMap.getMetadata().getResourceVersion());
  }

  private static long listVersion(EmbeddedApiServer server) {
    return Long.parseLong(server.client().configMaps().inNamespace("d").list().getMetadata().getResourceVersion());
  }

  @Test
  void objectsAndEventsSurviveARestartAndResourceVersionsGoOn() {
    EmbeddedApiServer first = start();
    first.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("d").endMetadata()
        .build()).create();
    ConfigMap kept = configMap(first, "kept", "1");
    configMap(first, "gone", "1");
    first.client().configMaps().inNamespace("d").withName("gone").delete();
    first.client().v1().events().inNamespace("d").resource(new EventBuilder().withNewMetadata().withName("e1")
        .endMetadata().withReason("Tested").withMessage("kept across restarts").withNewInvolvedObject()
        .withKind("ConfigMap").withNamespace("d").withName("kept").endInvolvedObject().build()).create();
    long last = listVersion(first);
    first.close();

    EmbeddedApiServer second = start();
    ConfigMap read = second.client().configMaps().inNamespace("d").withName("kept").get();
    assertThat(read.getData()).containsEntry("v", "1");
    assertThat(read.getMetadata().getUid()).isEqualTo(kept.getMetadata().getUid());
    assertThat(read.getMetadata().getResourceVersion()).isEqualTo(kept.getMetadata().getResourceVersion());
    assertThat(second.client().configMaps().inNamespace("d").withName("gone").get()).isNull();
    assertThat(second.client().v1().events().inNamespace("d").withName("e1").get().getMessage())
        .isEqualTo("kept across restarts");
    assertThat(listVersion(second)).isEqualTo(last);
    // the delete's resourceVersion counted too: no version is given out twice
    assertThat(version(configMap(second, "kept", "2"))).isEqualTo(last + 1);
    second.close();

    assertThat(listVersion(start())).isEqualTo(last + 1);
  }

  @Test
  void aWatchFromBeforeTheRestartIsExpiredAndOneFromTheCurrentVersionResumes() {
    EmbeddedApiServer first = start();
    long older = version(configMap(first, "a", "1"));
    long current = version(configMap(first, "a", "2"));
    first.close();

    EmbeddedApiServer second = start();
    List<JsonNode> expired = watch(second, older);
    assertThat(expired).hasSize(1);
    assertThat(expired.get(0).path("type").asText()).isEqualTo("ERROR");
    assertThat(expired.get(0).at("/object/code").asInt()).isEqualTo(410);
    assertThat(expired.get(0).at("/object/reason").asText()).isEqualTo("Expired");

    configMap(second, "a", "3");
    List<JsonNode> resumed = watch(second, current);
    assertThat(resumed).extracting(e -> e.path("type").asText() + " " + e.at("/object/data/v").asText())
        .containsExactly("MODIFIED 3");
  }

  private static List<JsonNode> watch(EmbeddedApiServer server, long from) {
    Http.Response response = new Http(server).get("/api/v1/namespaces/d/configmaps?watch=true&timeoutSeconds=1"
        + "&resourceVersion=" + from);
    assertThat(response.code()).isEqualTo(200);
    List<JsonNode> events = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      if (!line.isBlank()) {
        try {
          events.add(Json.MAPPER.readTree(line));
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    }
    return events;
  }

  @Test
  void aSecondServerOnTheSameDirectoryIsRefusedUntilTheFirstStops() {
    EmbeddedApiServer first = start();
    configMap(first, "a", "1");
    assertThatThrownBy(this::start).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the data directory " + dir.resolve("data") + " is in use by another trainer process")
        .hasMessageContaining("pid " + ProcessHandle.current().pid());
    // the refused start left the holder's lock and database alone
    assertThat(version(configMap(first, "a", "2"))).isGreaterThan(0);
    first.close();
    assertThat(start().client().configMaps().inNamespace("d").withName("a").get().getData()).containsEntry("v", "2");
  }

  @Test
  void aDatabaseOfANewerSchemaIsRefused() throws Exception {
    start().close();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("data/state.db"));
         Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA user_version = " + (SqliteStorage.SCHEMA_VERSION + 1));
    }
    assertThatThrownBy(this::start).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("was written by a newer version of the trainer (schema "
            + (SqliteStorage.SCHEMA_VERSION + 1) + "; this version reads schemas up to " + SqliteStorage.SCHEMA_VERSION);
    // and the directory is not left locked by the refused start
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("data/state.db"));
         Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA user_version = " + SqliteStorage.SCHEMA_VERSION);
    }
    start();
  }

  @Test
  void aServiceAccountTokenIssuedBeforeARestartStillAuthenticates() {
    EmbeddedApiServer first = start();
    first.client().serviceAccounts().inNamespace("d").resource(new io.fabric8.kubernetes.api.model
        .ServiceAccountBuilder().withNewMetadata().withName("trainer").endMetadata().build()).create();
    String token = first.client().serviceAccounts().inNamespace("d").withName("trainer").tokenRequest(
        new io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder().withNewSpec().endSpec().build())
        .getStatus().getToken();
    first.close();

    EmbeddedApiServer second = start();
    io.fabric8.kubernetes.api.model.authentication.TokenReview review = second.client().authentication().v1()
        .tokenReviews().create(new io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder().withNewSpec()
            .withToken(token).endSpec().build());

    assertThat(review.getStatus().getAuthenticated()).isTrue();
    assertThat(review.getStatus().getUser().getUsername()).isEqualTo("system:serviceaccount:d:trainer");
  }

  @Test
  void theDirectoryAndDatabaseAreTheOwnersOnly() throws Exception {
    EmbeddedApiServer server = start();
    server.client().secrets().inNamespace("d").resource(new SecretBuilder().withNewMetadata().withName("s")
        .endMetadata().addToStringData("token", "secret").build()).create();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("data"))))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("data/state.db"))))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
        dir.resolve("data/service-account-key.jwk")))).isEqualTo("rw-------");
    assertThat(server.dataDirectory()).hasValue(dir.resolve("data"));
  }
}
