package io.kftrainer.framework;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Test fixtures from class-path YAML (the test kit depends on this module, so it cannot be used here). */
public final class Yamls {

  public static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Yamls() {
  }

  public static <T> T load(String resource, Class<T> type) {
    try (InputStream in = Yamls.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      return SERIALIZATION.unmarshal(new String(in.readAllBytes(), StandardCharsets.UTF_8), type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String json(Object object) {
    return SERIALIZATION.asJson(object);
  }
}
