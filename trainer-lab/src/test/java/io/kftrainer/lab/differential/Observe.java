package io.kftrainer.lab.differential;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/** How the cases record what a client saw. */
final class Observe {

  /** How long a case waits for something that happens on both servers (garbage collection, watch events). */
  static final Duration SETTLE = Duration.ofSeconds(15);

  /** How kubectl's standard output is compared. */
  enum Output {
    /** {@code -o json} or {@code -o yaml}: as a normalised object. */
    DOCUMENT,
    /** A table: ages normalised. */
    TABLE,
    /** Anything else. */
    TEXT
  }

  private Observe() {
  }

  /** kubectl's exit code, standard output (as {@code output} says) and standard error. */
  static Observation kubectl(Kubectl.Result result, Output output) {
    return new Observation().put("exit", result.exit())
        .put("out", switch (output) {
          case DOCUMENT -> Normalized.document(result.out());
          case TABLE -> Normalized.table(result.out());
          case TEXT -> Normalized.text(result.out());
        })
        .put("err", Normalized.table(result.err()));
  }

  /** The object {@code kind/name} of {@code namespace} as the admin reads it, normalised; null when absent. */
  static JsonNode object(Side side, String namespace, String apiVersion, String kind, String name) {
    GenericKubernetesResource object = side.admin().genericKubernetesResources(apiVersion, kind)
        .inNamespace(namespace).withName(name).get();
    return object == null ? JsonNodeFactory.instance.nullNode()
        : Normalized.object(Serialization.jsonMapper().valueToTree(object));
  }

  static JsonNode configMap(Side side, String namespace, String name) {
    return object(side, namespace, "v1", "ConfigMap", name);
  }

  /**
   * A fabric8 call: its failure as {@link Normalized#failure}, or {@code status ok} and what it returned,
   * normalised.
   */
  static Observation call(Callable<?> call) throws Exception {
    try {
      Object returned = call.call();
      return new Observation().put("status", "ok").put("returned", returned == null ? null
          : Normalized.object(Serialization.jsonMapper().valueToTree(returned)));
    } catch (KubernetesClientException e) {
      return Normalized.failure(e);
    }
  }

  /**
   * A request through the fabric8 client's HTTP client (its authentication), for bodies no typed call sends: the
   * status code, the {@code Warning} headers, and the Status's fields or the object answered.
   */
  static Observation request(Side side, String method, String path, String contentType, String body)
      throws Exception {
    HttpClient http = side.admin().getHttpClient();
    String url = side.admin().getMasterUrl().toString().replaceAll("/$", "") + path;
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    HttpRequest request = http.newHttpRequestBuilder().uri(url)
        .method(method, contentType, new ByteArrayInputStream(bytes), (long) bytes.length).build();
    HttpResponse<String> response = http.sendAsync(request, String.class).get(60, TimeUnit.SECONDS);
    ArrayNode warnings = JsonNodeFactory.instance.arrayNode();
    response.headers("Warning").forEach(w -> warnings.add(Normalized.text(w)));
    Observation seen = new Observation().put("status", response.code()).put("warnings", warnings);
    JsonNode answer = Normalized.JSON.readTree(response.body());
    if ("Status".equals(answer.path("kind").asText())) {
      return Normalized.status(seen, answer);
    }
    return seen.put("returned", Normalized.object(answer));
  }

  /** Waits at most {@link #SETTLE} for {@code condition}; a condition that never holds is observed as it is. */
  static void settle(Callable<Boolean> condition) {
    try {
      await().atMost(SETTLE).pollInterval(Duration.ofMillis(100)).until(condition);
    } catch (ConditionTimeoutException e) {
      // what the case observes next shows the difference
    }
  }
}
