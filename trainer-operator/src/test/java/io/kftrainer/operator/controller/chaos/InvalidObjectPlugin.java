package io.kftrainer.operator.controller.chaos;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds invalid objects for the TrainJobs labelled {@code chaos}: {@code null-object} (a null in its list),
 * {@code nameless} (a ConfigMap without a name), {@code rejected} (a PodGroup whose {@code minMember} the API server's schema rejects);
 * nothing for the others. Loaded from a jar by {@code BadPluginTest}.
 */
public final class InvalidObjectPlugin implements ComponentBuilder {

  @Override
  public String name() {
    return "InvalidObject";
  }

  @Override
  public int order() {
    return 1002;
  }

  @Override
  public List<HasMetadata> build(BuildContext context) {
    Map<String, String> labels = Objects.requireNonNullElse(context.trainJob().getMetadata().getLabels(),
        Map.of());
    String chaos = labels.get("chaos");
    if ("null-object".equals(chaos)) {
      return Arrays.asList((HasMetadata) null);
    }
    if ("nameless".equals(chaos)) {
      return List.of(new ConfigMapBuilder().withNewMetadata().endMetadata().build());
    }
    if ("rejected".equals(chaos)) {
      GenericKubernetesResource podGroup = new GenericKubernetesResourceBuilder()
          .withApiVersion("scheduling.x-k8s.io/v1alpha1").withKind("PodGroup")
          .withNewMetadata().withName("bad-group").endMetadata()
          .withAdditionalProperties(Map.of("spec", Map.of("minMember", "many")))
          .build();
      return List.of(podGroup);
    }
    return List.of();
  }
}
