package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static io.kftrainer.apiserver.KubeJson.metadata;
import static io.kftrainer.apiserver.KubeJson.now;
import static io.kftrainer.apiserver.KubeJson.parseObject;
import static io.kftrainer.apiserver.StatusErrors.conflict;
import static io.kftrainer.apiserver.StatusErrors.details;
import static io.kftrainer.apiserver.StatusErrors.notFound;
import static io.kftrainer.apiserver.CreateAndUpdateRequests.MAX_ATTEMPTS;

/**
 * DELETE of one object (preconditions, propagation policies, finalizers and deletionTimestamp) and of collections;
 * dependents are the {@link GarbageCollector}'s.
 */
final class DeleteRequests {

  private static final String METADATA = "metadata";

  private final Store store;
  private final ApiHandler api;

  DeleteRequests(Store store, ApiHandler api) {
    this.store = store;
    this.api = api;
  }

  Response delete(Target target, byte[] body) {
    ResourcePath rp = target.rp();
    ObjectNode options = body.length == 0 ? JsonNodeFactory.instance.objectNode() : parseObject(body, Response.JSON);
    String policy = options.path("propagationPolicy").asText(rp.query().getOrDefault("propagationPolicy", ""));
    if (options.path("orphanDependents").asBoolean(false)) {
      policy = "Orphan";
    }
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Stored current = store.get(target.kind(), rp.namespace(), rp.name());
      if (current == null) {
        return notFound(target);
      }
      JsonNode preconditions = options.path("preconditions");
      String uid = preconditions.path("uid").asText("");
      if (!uid.isEmpty() && !uid.equals(current.uid())) {
        return Response.json(409, Response.failure(409, "Conflict", "Operation cannot be fulfilled on "
            + target.qualified() + " \"" + rp.name() + "\": Precondition failed: UID in precondition: " + uid
            + ", UID in object meta: " + current.uid(), details(target, rp.name())));
      }
      String version = preconditions.path("resourceVersion").asText("");
      if (!version.isEmpty() && !version.equals(Long.toString(current.resourceVersion()))) {
        return conflict(target);
      }
      Response response = deleteObject(target, current, policy, rp.isDryRun());
      if (response != null) {
        return response;
      }
    }
    return conflict(target);
  }

  /** Deletes (or marks for deletion) one object with a propagation policy; null on a concurrent change. */
  Response deleteObject(Target target, Store.Stored current, String policy, boolean dryRun) {
    ObjectNode object = current.object().deepCopy();
    ObjectNode metadata = metadata(object);
    List<String> finalizers = new ArrayList<>();
    metadata.path("finalizers").forEach(f -> finalizers.add(f.asText()));
    if (policy.equals("Orphan") && !dryRun) {
      GarbageCollector.orphanDependents(api, current);
    }
    if (policy.equals("Foreground") && !finalizers.contains(GarbageCollector.FOREGROUND)) {
      finalizers.add(GarbageCollector.FOREGROUND);
      ArrayNode array = metadata.putArray("finalizers");
      finalizers.forEach(array::add);
    }
    if (dryRun) {
      return Response.json(200, object);
    }
    if (finalizers.isEmpty()) {
      if (!store.remove(current)) {
        return null;
      }
      if (target.kind().equals(ApiHandler.CRDS)) {
        removeCustomResources(current.object());
      }
      return Response.json(200, Response.success(target.qualified(), current));
    }
    if (!metadata.hasNonNull("deletionTimestamp")) {
      metadata.put("deletionTimestamp", now());
      metadata.put("deletionGracePeriodSeconds", 0);
    }
    if (object.equals(current.object())) {
      return Response.json(200, current.json());
    }
    Store.Stored stored = store.put(target.kind(), current, object);
    return stored == null ? null : Response.json(200, stored.json());
  }

  /**
   * The objects of a deleted CRD go with it, as kube-apiserver's CRD finalizer deletes them (a CRD created again
   * later starts empty); each removal is a DELETED event, and the garbage collector follows their dependents. Unlike
   * kube-apiserver, the CRD does not wait for finalizers on its objects: they go at once.
   */
  private void removeCustomResources(JsonNode crd) {
    JsonNode spec = crd.path("spec");
    Store.Kind kind = new Store.Kind(spec.path("group").asText(), spec.path("names").path("plural").asText());
    for (Store.Stored object : store.list(kind, null)) {
      store.remove(object);
    }
  }

  Response deleteCollection(Target target, byte[] body) {
    ResourcePath rp = target.rp();
    Selection selection = Selection.of(target, store);
    ObjectNode options = body.length == 0 ? JsonNodeFactory.instance.objectNode() : parseObject(body, Response.JSON);
    String policy = options.path("propagationPolicy").asText(rp.query().getOrDefault("propagationPolicy", ""));
    ObjectNode list = JsonNodeFactory.instance.objectNode();
    list.put("apiVersion", rp.apiVersion());
    list.put("kind", target.kindName() + "List");
    list.putObject(METADATA);
    ArrayNode items = list.putArray("items");
    for (Store.Stored stored : new ArrayList<>(store.list(target.kind(), rp.namespace()))) {
      if (selection.matches(stored)) {
        Response response = deleteObject(target, stored, policy, rp.isDryRun());
        if (response != null) {
          items.add(stored.object());
        }
      }
    }
    metadata(list).put("resourceVersion", Long.toString(store.resourceVersion()));
    return Response.json(200, list);
  }
}
