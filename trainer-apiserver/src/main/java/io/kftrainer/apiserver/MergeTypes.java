package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The {@link MergeType} of each kind: built-in kinds from {@value #RESOURCE} (the list, map and patch markers of the
 * Kubernetes OpenAPI definitions and the names of their fields, kept equal to fabric8's copy of them by
 * {@code KubernetesMergeTypesTest}); custom
 * resources from their CRD's {@code openAPIV3Schema}, with {@code metadata} typed as {@code ObjectMeta} as
 * kube-apiserver does. Built-in definitions are read on first use; CRD types are rebuilt when a CRD changes.
 */
final class MergeTypes {

  static final String RESOURCE = "/io/kftrainer/apiserver/kubernetes-merge-types.json";
  static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

  private final Supplier<List<JsonNode>> crds;
  private final AtomicLong crdChanges = new AtomicLong();
  private volatile Cached cached;

  private record Cached(long changes, Map<String, MergeType> byGroupKind) {
  }

  MergeTypes(Supplier<List<JsonNode>> crds) {
    this.crds = crds;
  }

  void invalidate() {
    crdChanges.incrementAndGet();
  }

  /** The type of {@code kind} in {@code group}/{@code version}; {@link MergeType#DEDUCED} when unknown. */
  MergeType of(String group, String version, String kind) {
    if (Discovery.isBuiltinGroup(group)) {
      String pkg = group.isEmpty() ? "core" : group.split("\\.")[0];
      JsonNode definition = Builtin.DEFINITIONS.path("io.k8s.api." + pkg + "." + version + "." + kind);
      return definition.isMissingNode() ? MergeType.DEDUCED
          : MergeType.root(definition, Builtin::definition, Builtin.OBJECT_META_TYPE);
    }
    long changes = crdChanges.get();
    Cached current = cached;
    if (current == null || current.changes() != changes) {
      current = new Cached(changes, customResourceTypes());
      cached = current;
    }
    return current.byGroupKind().getOrDefault(group + "/" + version + "/" + kind, MergeType.DEDUCED);
  }

  /** {@code ObjectMeta}'s type: {@code metadata} of every kind. */
  static MergeType objectMeta() {
    return Builtin.OBJECT_META_TYPE;
  }

  private Map<String, MergeType> customResourceTypes() {
    Map<String, MergeType> types = new HashMap<>();
    for (JsonNode crd : crds.get()) {
      JsonNode spec = crd.path("spec");
      for (JsonNode version : spec.path("versions")) {
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        types.put(spec.path("group").asText() + "/" + version.path("name").asText() + "/"
            + spec.path("names").path("kind").asText(),
            MergeType.root(schema, name -> MissingNode.getInstance(), Builtin.OBJECT_META_TYPE));
      }
    }
    return types;
  }

  /** The built-in definitions, loaded on first use (a holder class: `local` starts without reading them). */
  private static final class Builtin {
    static final JsonNode DEFINITIONS = load();
    static final MergeType OBJECT_META_TYPE = MergeType.root(DEFINITIONS.path(OBJECT_META), Builtin::definition,
        null);

    static JsonNode definition(String name) {
      return DEFINITIONS.path(name);
    }

    private static JsonNode load() {
      try (InputStream in = MergeTypes.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException(RESOURCE + " is not on the class path");
        }
        return new ObjectMapper().readTree(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
