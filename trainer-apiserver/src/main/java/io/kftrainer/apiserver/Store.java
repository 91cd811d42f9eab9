package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The objects of the embedded server, in memory, with one global, monotonic resourceVersion and an event history
 * for watches.
 *
 * <p>Concurrency: reads never lock. Every write is a compare-and-set against the {@link Stored} the writer read
 * ({@link #put}, {@link #remove}): callers prepare the new object outside any lock (decoding, patching, admission)
 * and retry on a conflict. Only the commit itself (resourceVersion, {@link Storage} write, map update, history,
 * watcher queues) runs under one short lock, so resourceVersions and the events of every watch are in commit order.
 *
 * <p>Durability ({@link Storage}): a commit is written to the storage before anything in memory changes, so what a
 * reader or watcher sees, and what a writer is answered, is durable; a failed storage write changes nothing. The
 * objects and the last resourceVersion come back from the storage at start: resourceVersions go on from there. The
 * history of events does not: as after a kube-apiserver restart, a watch from a resourceVersion before the start
 * answers 410 Expired and its client lists again.
 */
final class Store {

  /** A kind of resource: API group and plural (one version per kind is stored). */
  record Kind(String group, String plural) {
  }

  /** A stored object. {@code object} is never mutated once stored; {@code json} is its serialized form. */
  record Stored(Kind kind, ObjectNode object, String json, long resourceVersion) {
    String namespace() {
      return object.path("metadata").path("namespace").asText("");
    }

    String name() {
      return object.path("metadata").path("name").asText("");
    }

    String uid() {
      return object.path("metadata").path("uid").asText("");
    }
  }

  /** A committed change: ADDED, MODIFIED or DELETED; {@code previous} is the object before it (null for ADDED). */
  record Event(String type, Stored object, Stored previous) {
  }

  /** The requested resourceVersion is older than the history kept for watches. */
  static final class ExpiredException extends Exception {
    ExpiredException(String message) {
      super(message);
    }
  }

  /** An open watch on one kind; the reader filters by namespace, name and selectors. */
  final class Watch implements AutoCloseable {
    final Kind kind;
    private final BlockingQueue<Event> queue = new LinkedBlockingQueue<>();

    private Watch(Kind kind) {
      this.kind = kind;
    }

    Event poll(long timeout, TimeUnit unit) throws InterruptedException {
      return queue.poll(timeout, unit);
    }

    @Override
    public void close() {
      watches.remove(this);
    }
  }

  private final Map<Kind, ConcurrentSkipListMap<String, Stored>> objects = new ConcurrentHashMap<>();
  /** Every stored object by uid, and the uids of each owner's dependents: the garbage collector's indexes. */
  private final Map<String, Stored> byUid = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> dependents = new ConcurrentHashMap<>();
  private final List<Watch> watches = new CopyOnWriteArrayList<>();
  private final List<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();
  private final Deque<Event> history = new ArrayDeque<>();
  private final int historyCapacity;
  private final Object commitLock = new Object();
  private volatile long resourceVersion;
  /** The resourceVersion before the oldest event of the history (0 while nothing has been dropped). */
  private long historyStart;

  private final Storage storage;

  /** An empty store in memory only. */
  Store(int historyCapacity) {
    this(historyCapacity, Storage.MEMORY);
  }

  /** A store with the objects and resourceVersion of {@code storage}, writing through to it. */
  Store(int historyCapacity, Storage storage) {
    this.historyCapacity = historyCapacity;
    this.storage = storage;
    long last = storage.resourceVersion();
    for (Storage.Row row : storage.objects()) {
      ObjectNode object;
      try {
        object = (ObjectNode) Json.MAPPER.readTree(row.json());
      } catch (java.io.IOException e) {
        throw new IllegalStateException("a stored " + row.kind() + " is not JSON: " + e.getMessage(), e);
      }
      Stored stored = new Stored(row.kind(), object, row.json(), row.resourceVersion());
      of(row.kind()).put(key(stored.namespace(), stored.name()), stored);
      index(null, stored);
      last = Math.max(last, row.resourceVersion());
    }
    this.resourceVersion = last;
    this.historyStart = last;
  }

  /** Closes the storage; the store must not be written afterwards. */
  void close() {
    synchronized (commitLock) {
      storage.close();
    }
  }

  private static String key(String namespace, String name) {
    return (namespace == null ? "" : namespace) + "/" + name;
  }

  private ConcurrentSkipListMap<String, Stored> of(Kind kind) {
    return objects.computeIfAbsent(kind, k -> new ConcurrentSkipListMap<>());
  }

  long resourceVersion() {
    return resourceVersion;
  }

  Stored get(Kind kind, String namespace, String name) {
    return of(kind).get(key(namespace, name));
  }

  /** The objects of {@code kind} in {@code namespace} (every namespace when null), ordered by namespace and name. */
  Collection<Stored> list(Kind kind, String namespace) {
    ConcurrentSkipListMap<String, Stored> all = of(kind);
    if (namespace == null) {
      return all.values();
    }
    return all.subMap(namespace + "/", namespace + "0").values(); // '0' follows '/'
  }

  /** The stored object with this uid, or null. */
  Stored byUid(String uid) {
    return byUid.get(uid);
  }

  /** The stored objects whose {@code ownerReferences} name {@code ownerUid}. */
  List<Stored> dependentsOf(String ownerUid) {
    List<Stored> result = new ArrayList<>();
    for (String uid : dependents.getOrDefault(ownerUid, Set.of())) {
      Stored dependent = byUid.get(uid);
      if (dependent != null) {
        result.add(dependent);
      }
    }
    return result;
  }

  /** Moves the indexes from {@code previous} (null: none) to {@code stored} (null: none); under the commit lock. */
  private void index(Stored previous, Stored stored) {
    if (previous != null) {
      byUid.remove(previous.uid());
      for (JsonNode ref : previous.object().path("metadata").path("ownerReferences")) {
        dependents.computeIfPresent(ref.path("uid").asText(), (owner, uids) -> {
          uids.remove(previous.uid());
          return uids.isEmpty() ? null : uids;
        });
      }
    }
    if (stored != null) {
      byUid.put(stored.uid(), stored);
      for (JsonNode ref : stored.object().path("metadata").path("ownerReferences")) {
        dependents.computeIfAbsent(ref.path("uid").asText(), owner -> ConcurrentHashMap.newKeySet())
            .add(stored.uid());
      }
    }
  }

  /** Every stored object of every kind. */
  List<Stored> all() {
    List<Stored> result = new ArrayList<>();
    objects.values().forEach(m -> result.addAll(m.values()));
    return result;
  }

  /** Called after each commit, outside the lock, in no guaranteed order across threads. */
  void addListener(Consumer<Event> listener) {
    listeners.add(listener);
  }

  /**
   * Stores {@code object} (its resourceVersion is set here) if the current object is still {@code expected}
   * (null: absent). Returns the stored object, or null when someone else wrote first.
   */
  Stored put(Kind kind, Stored expected, ObjectNode object) {
    JsonNode metadata = object.path("metadata");
    String key = key(metadata.path("namespace").asText(""), metadata.path("name").asText());
    Event event;
    synchronized (commitLock) {
      ConcurrentSkipListMap<String, Stored> map = of(kind);
      Stored current = map.get(key);
      if (current != expected) {
        return null;
      }
      long version = resourceVersion + 1;
      ((ObjectNode) metadata).put("resourceVersion", Long.toString(version));
      Stored stored = new Stored(kind, object, object.toString(), version);
      storage.put(kind, stored.namespace(), stored.name(), stored.json(), version);
      map.put(key, stored);
      resourceVersion = version;
      event = new Event(expected == null ? "ADDED" : "MODIFIED", stored, expected);
      index(expected, stored);
      publish(event);
    }
    notifyListeners(event);
    return event.object();
  }

  /** Removes {@code expected} if it is still current; returns false when someone else wrote first. */
  boolean remove(Stored expected) {
    String key = key(expected.namespace(), expected.name());
    Event event;
    synchronized (commitLock) {
      ConcurrentSkipListMap<String, Stored> map = of(expected.kind());
      if (map.get(key) != expected) {
        return false;
      }
      long version = resourceVersion + 1;
      storage.delete(expected.kind(), expected.namespace(), expected.name(), version);
      map.remove(key);
      ObjectNode object = expected.object().deepCopy();
      ((ObjectNode) object.path("metadata")).put("resourceVersion", Long.toString(version));
      resourceVersion = version;
      event = new Event("DELETED", new Stored(expected.kind(), object, object.toString(), version), expected);
      index(expected, null);
      publish(event);
    }
    notifyListeners(event);
    return true;
  }

  private void publish(Event event) {
    history.addLast(event);
    if (history.size() > historyCapacity) {
      historyStart = history.removeFirst().object().resourceVersion();
    }
    for (Watch watch : watches) {
      if (watch.kind.equals(event.object().kind())) {
        watch.queue.add(event);
      }
    }
  }

  private void notifyListeners(Event event) {
    for (Consumer<Event> listener : listeners) {
      listener.accept(event);
    }
  }

  /**
   * Opens a watch on {@code kind}. With {@code fromVersion} null, the watch starts with an ADDED event per current
   * object; otherwise with the events committed after {@code fromVersion}.
   *
   * @throws ExpiredException when {@code fromVersion} is older than the history kept
   */
  Watch watch(Kind kind, Long fromVersion) throws ExpiredException {
    Watch watch = new Watch(kind);
    synchronized (commitLock) {
      if (fromVersion == null) {
        for (Stored stored : of(kind).values()) {
          watch.queue.add(new Event("ADDED", stored, null));
        }
      } else {
        if (fromVersion < historyStart) {
          throw new ExpiredException("too old resource version: " + fromVersion + " (" + (historyStart + 1) + ")");
        }
        for (Event event : history) {
          if (event.object().resourceVersion() > fromVersion && event.object().kind().equals(kind)) {
            watch.queue.add(event);
          }
        }
      }
      watches.add(watch);
    }
    return watch;
  }

  /** Removes every object; open watches stay open and see nothing of it (as after an etcd restore). */
  void clear() {
    synchronized (commitLock) {
      storage.clear();
      objects.clear();
      byUid.clear();
      dependents.clear();
      history.clear();
      historyStart = resourceVersion;
    }
  }
}
