package io.kftrainer.operator.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The project version, from {@code META-INF/trainer/version.properties} (written by the build). */
public final class OperatorVersion {

  static final String RESOURCE = "META-INF/trainer/version.properties";

  private OperatorVersion() {
  }

  public static String get() {
    Properties properties = new Properties();
    try (InputStream in = OperatorVersion.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version", "unknown");
  }
}
