package io.kftrainer.apiserver;

import java.util.List;

/**
 * Where the {@link Store} keeps what it commits beyond its own memory: nowhere ({@link #MEMORY}, the default, what
 * tests and {@code local --ephemeral} use), or a database ({@link SqliteStorage}). The store stays the only reader
 * while it runs: it loads every object once at start and then only writes, under its commit lock, in
 * resourceVersion order. A method that returns has made its change durable; one that throws has changed nothing,
 * and the store then changes nothing either.
 */
interface Storage extends AutoCloseable {

  /** A stored object as its JSON, with the resourceVersion written in it. */
  record Row(Store.Kind kind, String json, long resourceVersion) {
  }

  /** The last resourceVersion given out, 0 for a new store. */
  long resourceVersion();

  /** Every stored object. */
  List<Row> objects();

  /** Creates or replaces the object {@code namespace/name} of {@code kind}; {@code resourceVersion} is the new last. */
  void put(Store.Kind kind, String namespace, String name, String json, long resourceVersion);

  /** Deletes the object {@code namespace/name} of {@code kind}; {@code resourceVersion} is the new last. */
  void delete(Store.Kind kind, String namespace, String name, long resourceVersion);

  /** Deletes every object; the resourceVersion stays. */
  void clear();

  @Override
  void close();

  /** Nothing beyond memory: the state ends with the process. */
  Storage MEMORY = new Storage() {
    @Override
    public long resourceVersion() {
      return 0;
    }

    @Override
    public List<Row> objects() {
      return List.of();
    }

    @Override
    public void put(Store.Kind kind, String namespace, String name, String json, long resourceVersion) {
    }

    @Override
    public void delete(Store.Kind kind, String namespace, String name, long resourceVersion) {
    }

    @Override
    public void clear() {
    }

    @Override
    public void close() {
    }
  };
}
