package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Kubernetes' garbage collector, for this server: dependents (objects whose {@code ownerReferences} name an owner's
 * uid) go when their last owner goes.
 * <ul>
 *   <li>Background (the default): the owner is deleted at once, its dependents after, on this collector's thread.</li>
 *   <li>Foreground: the owner gets the {@code foregroundDeletion} finalizer and a deletionTimestamp; its dependents
 *   are deleted, and once none is left the finalizer goes and with it the owner.</li>
 *   <li>Orphan: the owner's references are removed from its dependents before the owner is deleted.</li>
 * </ul>
 * A dependent with another owner that still exists only loses the reference to the deleted one. An object created
 * with owner references none of which exists (a controller acting on a stale cache after the owner went) is
 * deleted, as Kubernetes' collector deletes dependents whose owners are all absent.
 */
final class GarbageCollector implements Consumer<Store.Event>, AutoCloseable {

  static final String FOREGROUND = "foregroundDeletion";
  private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
  private static final int ATTEMPTS = 16;

  private final ApiHandler api;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread thread = new Thread(r, "apiserver-gc");
    thread.setDaemon(true);
    return thread;
  });

  GarbageCollector(ApiHandler api) {
    this.api = api;
  }

  @Override
  public void accept(Store.Event event) {
    Store.Stored object = event.object();
    if (event.type().equals("ADDED") && !hasLiveOwner(object.object())) {
      submit(() -> {
        if (!hasLiveOwner(object.object())) { // checked again: an owner may have been created meanwhile
          delete(object, "Background");
        }
      });
    }
    if (event.type().equals("DELETED")) {
      submit(() -> {
        collectDependentsOf(object.uid());
        // an owner being deleted in the foreground may have been waiting for this object
        object.object().path("metadata").path("ownerReferences").forEach(ref -> foregroundOwner(ref));
      });
    } else if (isForegroundDeletion(object.object())) {
      submit(() -> foreground(object.kind(), object.namespace(), object.name()));
    }
  }

  private void submit(Runnable task) {
    if (!executor.isShutdown()) {
      executor.execute(() -> {
        try {
          task.run();
        } catch (RuntimeException e) {
          LOG.warn("garbage collection failed", e);
        }
      });
    }
  }

  private static boolean isForegroundDeletion(JsonNode object) {
    JsonNode metadata = object.path("metadata");
    if (!metadata.hasNonNull("deletionTimestamp")) {
      return false;
    }
    for (JsonNode finalizer : metadata.path("finalizers")) {
      if (finalizer.asText().equals(FOREGROUND)) {
        return true;
      }
    }
    return false;
  }

  private void collectDependentsOf(String ownerUid) {
    for (Store.Stored dependent : api.store().dependentsOf(ownerUid)) {
      boolean otherOwnerAlive = false;
      for (JsonNode ref : dependent.object().path("metadata").path("ownerReferences")) {
        String uid = ref.path("uid").asText();
        otherOwnerAlive |= !uid.equals(ownerUid) && api.store().byUid(uid) != null;
      }
      if (otherOwnerAlive) {
        removeReference(dependent, ownerUid);
      } else {
        delete(dependent, "Background");
      }
    }
  }

  private void foregroundOwner(JsonNode ownerReference) {
    Store.Stored owner = api.store().byUid(ownerReference.path("uid").asText());
    if (owner != null && isForegroundDeletion(owner.object())) {
      foreground(owner.kind(), owner.namespace(), owner.name());
    }
  }

  private void foreground(Store.Kind kind, String namespace, String name) {
    Store.Stored owner = api.store().get(kind, namespace, name);
    if (owner == null || !isForegroundDeletion(owner.object())) {
      return;
    }
    List<Store.Stored> dependents = api.store().dependentsOf(owner.uid());
    for (Store.Stored dependent : dependents) {
      if (!dependent.object().path("metadata").hasNonNull("deletionTimestamp")) {
        delete(dependent, "Foreground");
      }
    }
    if (dependents.isEmpty()) {
      for (int i = 0; i < ATTEMPTS && owner != null; i++) {
        ObjectNode changed = owner.object().deepCopy();
        ArrayNode finalizers = KubeJson.metadata(changed).putArray("finalizers");
        owner.object().path("metadata").path("finalizers").forEach(f -> {
          if (!f.asText().equals(FOREGROUND)) {
            finalizers.add(f);
          }
        });
        Target target = target(owner);
        if (target == null || api.commitUpdate(target, owner, changed, false) != null) {
          return;
        }
        owner = api.store().get(kind, namespace, name);
      }
    }
  }

  /** Removes the references of {@code owner}'s dependents to it (propagation policy Orphan). */
  static void orphanDependents(ApiHandler api, Store.Stored owner) {
    for (Store.Stored dependent : api.store().dependentsOf(owner.uid())) {
      removeReference(api, dependent, owner.uid());
    }
  }

  private void removeReference(Store.Stored dependent, String ownerUid) {
    removeReference(api, dependent, ownerUid);
  }

  private static void removeReference(ApiHandler api, Store.Stored dependent, String ownerUid) {
    Store.Stored current = dependent;
    for (int i = 0; i < ATTEMPTS && current != null; i++) {
      ObjectNode changed = current.object().deepCopy();
      ArrayNode refs = KubeJson.metadata(changed).putArray("ownerReferences");
      current.object().path("metadata").path("ownerReferences").forEach(ref -> {
        if (!ref.path("uid").asText().equals(ownerUid)) {
          refs.add(ref);
        }
      });
      if (refs.isEmpty()) {
        KubeJson.metadata(changed).remove("ownerReferences");
      }
      Target target = target(api, current);
      if (target == null || api.commitUpdate(target, current, changed, false) != null) {
        return;
      }
      current = api.store().get(dependent.kind(), dependent.namespace(), dependent.name());
    }
  }

  private void delete(Store.Stored dependent, String policy) {
    Store.Stored current = dependent;
    for (int i = 0; i < ATTEMPTS && current != null; i++) {
      Target target = target(current);
      if (target == null || api.deleteObject(target, current, policy, false) != null) {
        return;
      }
      current = api.store().get(dependent.kind(), dependent.namespace(), dependent.name());
    }
  }

  private Target target(Store.Stored stored) {
    return target(api, stored);
  }

  private static Target target(ApiHandler api, Store.Stored stored) {
    String apiVersion = stored.object().path("apiVersion").asText();
    String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
    String namespace = stored.namespace().isEmpty() ? null : stored.namespace();
    return api.target(new ResourcePath(stored.kind().group(), version, namespace, stored.kind().plural(),
        stored.name(), null, Map.of()));
  }

  /** True when {@code object} has no owner references, or one of them names a stored object. */
  private boolean hasLiveOwner(JsonNode object) {
    JsonNode refs = object.path("metadata").path("ownerReferences");
    if (refs.isEmpty()) {
      return true;
    }
    for (JsonNode ref : refs) {
      if (api.store().byUid(ref.path("uid").asText()) != null) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
