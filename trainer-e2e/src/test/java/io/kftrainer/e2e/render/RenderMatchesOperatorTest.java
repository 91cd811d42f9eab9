package io.kftrainer.e2e.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.ComparableObject;
import io.kftrainer.e2e.support.LocalOperator;
import io.kftrainer.e2e.support.Manifests;
import io.kftrainer.e2e.support.SharedLocalOperator;
import io.kftrainer.e2e.support.TrainJobs;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code render} tells the truth: for every example, the objects it prints are the objects the operator applies in
 * {@code local} mode for the same file, with the same content. The file is created as is (runtimes, then TrainJobs)
 * in a namespace of its own; once each TrainJob has its JobSet, every object labelled with its name is compared
 * with the rendered ones as JSON trees, without what only a cluster decides ({@link ComparableObject}).
 *
 * <p>The one object the operator creates that {@code render} does not print is the runtime snapshot ConfigMap
 * {@code <trainjob>-runtime-snapshot}: the operator's record of the runtime, not an output of the plugins.
 */
@ExtendWith(SharedLocalOperator.class)
class RenderMatchesOperatorTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SNAPSHOT_SUFFIX = "-runtime-snapshot";
  /** The kinds of child the built-in plugins create. */
  private static final List<List<String>> CHILD_KINDS = List.of(
      List.of("jobset.x-k8s.io/v1alpha2", "JobSet"),
      List.of("v1", "ConfigMap"),
      List.of("v1", "Secret"),
      List.of("scheduling.x-k8s.io/v1alpha1", "PodGroup"),
      List.of("scheduling.volcano.sh/v1beta1", "PodGroup"));

  private static LocalOperator operator;
  private static KubernetesClient client;

  @BeforeAll
  static void connect(LocalOperator local) {
    operator = local;
    client = local.client();
  }

  static List<String> examples() {
    return ExampleRenders.files();
  }

  @ParameterizedTest(name = "{0}: rendered objects equal the applied ones")
  @MethodSource("examples")
  void renderedObjectsEqualTheOnesTheOperatorApplies(String file) throws Exception {
    Command.Result render = ExampleRenders.of(file);
    assertThat(render.exitCode()).as(render.describe()).isZero();
    TrainJobs trainJobs = new TrainJobs(client, operator.createNamespace("render"));
    List<GenericKubernetesResource> documents = Manifests.read(ExampleRenders.path(file));
    List<String> names = documents.stream().filter(o -> "TrainJob".equals(o.getKind()))
        .map(o -> o.getMetadata().getName()).toList();

    trainJobs.create(documents);
    names.forEach(name -> trainJobs.awaitJobSet(name));

    Map<String, ComparableObject> rendered = comparable(rendered(render), trainJobs.namespace());
    await().atMost(TrainJobs.REACTION).untilAsserted(() -> {
      Map<String, ComparableObject> live = comparable(live(trainJobs, names), trainJobs.namespace());
      assertThat(live.keySet()).containsExactlyElementsOf(rendered.keySet());
      for (String identity : rendered.keySet()) {
        assertThat(live.get(identity).toString()).as(identity).isEqualTo(rendered.get(identity).toString());
      }
    });
  }

  private static List<JsonNode> rendered(Command.Result render) throws Exception {
    List<JsonNode> objects = new ArrayList<>();
    JSON.readTree(render.stdout()).path("items").forEach(objects::add);
    return objects;
  }

  private static List<JsonNode> live(TrainJobs trainJobs, List<String> names) throws Exception {
    List<JsonNode> objects = new ArrayList<>();
    for (String name : names) {
      for (List<String> kind : CHILD_KINDS) {
        for (GenericKubernetesResource child : trainJobs.children(kind.get(0), kind.get(1), name)) {
          if (!(child.getKind().equals("ConfigMap") && child.getMetadata().getName().endsWith(SNAPSHOT_SUFFIX))) {
            objects.add(JSON.readTree(client.getKubernetesSerialization().asJson(child)));
          }
        }
      }
    }
    return objects;
  }

  /** By identity, sorted; a duplicate identity fails the test. */
  private static Map<String, ComparableObject> comparable(List<JsonNode> objects, String namespace) {
    Map<String, ComparableObject> byIdentity = new TreeMap<>();
    Set<String> duplicates = new LinkedHashSet<>();
    for (JsonNode object : objects) {
      ComparableObject comparable = ComparableObject.of(object, namespace);
      if (byIdentity.put(comparable.identity(), comparable) != null) {
        duplicates.add(comparable.identity());
      }
    }
    assertThat(duplicates).as("objects listed twice").isEmpty();
    return byIdentity;
  }
}
