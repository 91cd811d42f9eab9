package io.kftrainer.framework.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kftrainer.framework.merge.PatchMeta;
import io.kftrainer.framework.merge.StrategicMerge;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A runtime patch's JobSet spec strategically merged into the runtime's ({@link StrategicMerge}), as upstream
 * merges it: the lists of a JobSet spec merge on the merge keys Kubernetes declares for them, wherever they are
 * ({@link #MERGE_KEYS}); replicated jobs, which upstream patches job by job in place, keep the runtime's order.
 */
final class RuntimePatchMerge {

  /** Merge keys of the lists that appear in a JobSet spec and in runtime patches, as Kubernetes declares them. */
  static final Map<String, String> MERGE_KEYS = Map.of(
      "replicatedJobs", "name",
      "containers", "name",
      "initContainers", "name",
      "env", "name",
      "volumes", "name",
      "volumeMounts", "mountPath",
      "imagePullSecrets", "name",
      "schedulingGates", "name",
      "ports", "containerPort");

  private static final String REPLICATED_JOBS = "replicatedJobs";

  /** A place of a JobSet spec, typed by its field's name alone. */
  private record ByFieldName(String name) implements PatchMeta {

    @Override
    public PatchMeta field(String field) {
      return new ByFieldName(field);
    }

    @Override
    public PatchMeta items() {
      return new ByFieldName(null);
    }

    @Override
    public Set<String> patchStrategies() {
      return MERGE_KEYS.containsKey(name) ? Set.of("merge") : Set.of();
    }

    @Override
    public String patchMergeKey() {
      return MERGE_KEYS.get(name);
    }
  }

  private RuntimePatchMerge() {
  }

  /** {@code patch} merged into {@code spec}, a JobSet spec; neither is modified. */
  static ObjectNode merge(ObjectNode spec, JsonNode patch) {
    ObjectNode merged = (ObjectNode) StrategicMerge.apply(spec, patch, new ByFieldName(null));
    if (spec.get(REPLICATED_JOBS) instanceof ArrayNode runtimeJobs
        && merged.get(REPLICATED_JOBS) instanceof ArrayNode mergedJobs) {
      merged.set(REPLICATED_JOBS, inRuntimeOrder(mergedJobs, runtimeJobs));
    }
    return merged;
  }

  /** The runtime's jobs in the runtime's order, then the patch's new jobs in the patch's. */
  private static ArrayNode inRuntimeOrder(ArrayNode merged, ArrayNode runtime) {
    List<String> runtimeNames = new ArrayList<>();
    runtime.forEach(job -> runtimeNames.add(job.path("name").asText()));
    List<JsonNode> jobs = new ArrayList<>();
    merged.forEach(jobs::add);
    jobs.sort(Comparator.comparingInt(job -> {
      int index = runtimeNames.indexOf(job.path("name").asText());
      return index < 0 ? Integer.MAX_VALUE : index;
    }));
    ArrayNode ordered = merged.arrayNode();
    jobs.forEach(ordered::add);
    return ordered;
  }
}
