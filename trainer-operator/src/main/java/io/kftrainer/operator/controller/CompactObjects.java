package io.kftrainer.operator.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.processing.event.source.informer.TransformingItemStore;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Makes the objects the informers cache smaller without changing their JSON. Once an object is deserialized:
 *
 * <ul>
 *   <li>every model object of fabric8 (and of trainer-api) carries an {@code additionalProperties} map for unknown
 *       fields, allocated with the object and nearly always empty (42 per TrainJob with its JobSet and runtime
 *       snapshot): each empty one becomes one shared empty map; likewise the empty lists fabric8 allocates for
 *       every list field;</li>
 *   <li>strings are interned (but uids and resource versions): TrainJobs of one runtime repeat the same images,
 *       commands, env vars, labels and runtime snapshot, which otherwise cost a copy per object;</li>
 *   <li>lists are trimmed to their size.</li>
 * </ul>
 *
 * <p>fabric8's classes cannot allocate lazily (they are generated), hence this pass at the cache's door (JOSDK's
 * {@code TransformingItemStore}). Cached objects are read-only by contract (JOSDK clones the primary before a
 * reconcile; plugins get secondaries through read-only lookups): adding to a shared empty map or list throws, which
 * is the point. Serialization, {@code equals} and builders ({@code new XBuilder(cached)} copies) are unchanged.
 */
public final class CompactObjects {

  private static final Map<String, Object> NONE = Collections.emptyMap();
  private static final List<Object> NO_ELEMENTS = Collections.emptyList();
  private static final String ADDITIONAL_PROPERTIES = "additionalProperties";
  /** Fields whose values differ from object to object: not worth an entry in the JVM's string table. */
  private static final Set<String> UNIQUE = Set.of("uid", "resourceVersion");
  private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
    @Override
    protected List<Field> computeValue(Class<?> type) {
      List<Field> fields = new ArrayList<>();
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field field : c.getDeclaredFields()) {
          if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()
              && field.trySetAccessible()) {
            fields.add(field);
          }
        }
      }
      return List.copyOf(fields);
    }
  };

  private CompactObjects() {
  }

  /** An informer store that keeps objects compacted. */
  public static <R extends HasMetadata> ItemStore<R> itemStore() {
    return new TransformingItemStore<>(CompactObjects::compact);
  }

  /** {@code object}, compacted in place (see the class comment). */
  public static <R> R compact(R object) {
    visit(object);
    return object;
  }

  private static void visit(Object value) {
    if (value instanceof List<?> list) {
      visitList(list);
    } else if (value instanceof Map<?, ?> map) {
      visitMap(map);
    } else if (value != null && isModel(value.getClass())) {
      for (Field field : FIELDS.get(value.getClass())) {
        visitField(value, field);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void visitList(List<?> list) {
    if (list instanceof ArrayList<?> arrayList) {
      arrayList.trimToSize();
    }
    if (!list.isEmpty() && list.get(0) instanceof String) {
      ((List<Object>) list).replaceAll(element -> element instanceof String text ? text.intern() : element);
    } else {
      list.forEach(CompactObjects::visit);
    }
  }

  @SuppressWarnings("unchecked")
  private static void visitMap(Map<?, ?> map) {
    for (Map.Entry<?, Object> entry : ((Map<?, Object>) map).entrySet()) {
      if (entry.getValue() instanceof String text) {
        entry.setValue(text.intern());
      } else {
        visit(entry.getValue());
      }
    }
  }

  private static void visitField(Object owner, Field field) {
    try {
      Object value = field.get(owner);
      if (value instanceof String text) {
        if (!UNIQUE.contains(field.getName())) {
          field.set(owner, text.intern());
        }
      } else if (value instanceof Map<?, ?> map && map.isEmpty() && ADDITIONAL_PROPERTIES.equals(field.getName())) {
        if (map != NONE) {
          field.set(owner, NONE);
        }
      } else if (value instanceof List<?> list && list.isEmpty()) {
        if (list != NO_ELEMENTS) {
          field.set(owner, NO_ELEMENTS);
        }
      } else {
        visit(value);
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + field, e);
    }
  }

  private static boolean isModel(Class<?> type) {
    String name = type.getName();
    return name.startsWith("io.fabric8.kubernetes.api.model.") || name.startsWith("io.kftrainer.api.");
  }
}
