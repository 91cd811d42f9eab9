package io.kftrainer.api;

import io.fabric8.generator.annotation.Default;
import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Sets the defaults of this project's CRDs on objects of the API model, as the API server does when it stores
 * them: an unset field with a {@code @Default} gets that value, inside every object that is present (a default
 * never creates its parent object). The CRDs are generated from the same {@code @Default} annotations, so the two
 * cannot disagree.
 *
 * <p>Only the model's own classes ({@code io.kftrainer.api}) are walked: the Kubernetes types they embed (pod
 * templates) have no CRD defaults.
 */
public final class CrdDefaults {

  private static final String MODEL_PACKAGE = "io.kftrainer.api.";

  /** The instance fields of each model class, looked up once: defaulting runs on every reconcile. */
  private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
    @Override
    protected List<Field> computeValue(Class<?> modelClass) {
      List<Field> fields = new ArrayList<>();
      for (Class<?> type = modelClass; isModel(type); type = type.getSuperclass()) {
        for (Field field : type.getDeclaredFields()) {
          if (!Modifier.isStatic(field.getModifiers())) {
            field.setAccessible(true);
            fields.add(field);
          }
        }
      }
      return List.copyOf(fields);
    }
  };

  private CrdDefaults() {
  }

  /** Sets the defaults on {@code object} in place: a custom resource's spec, or any object of the model. */
  public static void applyTo(Object object) {
    if (object instanceof CustomResource<?, ?> resource) {
      walk(resource.getSpec());
    } else {
      walk(object);
    }
  }

  private static void walk(Object value) {
    if (value instanceof Collection<?> items) {
      items.forEach(CrdDefaults::walk);
    } else if (value instanceof Map<?, ?> entries) {
      entries.values().forEach(CrdDefaults::walk);
    } else if (value != null && isModel(value.getClass())) {
      FIELDS.get(value.getClass()).forEach(field -> defaultField(value, field));
    }
  }

  private static void defaultField(Object owner, Field field) {
    try {
      Object current = field.get(owner);
      Default annotation = field.getAnnotation(Default.class);
      if (current == null && annotation != null) {
        field.set(owner, parse(annotation.value(), field));
      } else {
        walk(current);
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot default " + field, e);
    }
  }

  private static Object parse(String value, Field field) {
    Class<?> type = field.getType();
    if (type == String.class) {
      return value;
    } else if (type == Integer.class || type == int.class) {
      return Integer.valueOf(value);
    } else if (type == Long.class || type == long.class) {
      return Long.valueOf(value);
    } else if (type == Boolean.class || type == boolean.class) {
      return Boolean.valueOf(value);
    } else if (type == Double.class || type == double.class) {
      return Double.valueOf(value);
    }
    throw new IllegalStateException("unsupported @Default type " + type.getName() + " of " + field);
  }

  private static boolean isModel(Class<?> type) {
    return type != null && type.getName().startsWith(MODEL_PACKAGE);
  }
}
