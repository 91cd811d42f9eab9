package io.kftrainer.operator.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The project version, from {@code META-INF/trainer/version.properties} (written by the build). */
public final class VersionProvider implements IVersionProvider {

  static final String RESOURCE = "META-INF/trainer/version.properties";

  @Override
  public String[] getVersion() {
    return new String[] {"trainer-operator " + version()};
  }

  public static String version() {
    Properties properties = new Properties();
    try (InputStream in = VersionProvider.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version", "unknown");
  }
}
