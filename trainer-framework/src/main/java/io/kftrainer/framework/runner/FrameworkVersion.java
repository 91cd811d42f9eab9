package io.kftrainer.framework.runner;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version of {@code trainer-framework} this operator runs, and the one a plugin jar was built against: the
 * archetype's build writes it into the jar's manifest as {@value #MANIFEST_ATTRIBUTE}. A plugin built against an
 * older framework of the same major version keeps working ({@code docs/writing-plugins.md}); one built against a
 * newer minor version may use what this one lacks.
 */
public final class FrameworkVersion {

  /** The manifest entry of a plugin jar naming the framework version it was built against. */
  public static final String MANIFEST_ATTRIBUTE = "Trainer-Framework-Version";

  private static final String RESOURCE = "META-INF/trainer/framework-version.properties";
  private static final Pattern MAJOR_MINOR = Pattern.compile("(\\d+)\\.(\\d+)");
  private static final String CURRENT = read();

  private FrameworkVersion() {
  }

  /** This framework's version, e.g. {@code 0.1.0}; {@code unknown} outside a build. */
  public static String current() {
    return CURRENT;
  }

  /** The framework version {@code manifest} records, if it records one. */
  public static Optional<String> builtAgainst(Manifest manifest) {
    if (manifest == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(manifest.getMainAttributes().getValue(new Attributes.Name(MANIFEST_ATTRIBUTE)))
        .map(String::trim).filter(version -> !version.isEmpty());
  }

  /**
   * Whether {@code version} is of a later major or minor version than this framework: a plugin built against it
   * may call what this framework does not have. Patch versions and qualifiers ({@code -SNAPSHOT}) do not count.
   */
  public static boolean isNewerThanCurrent(String version) {
    return isNewer(version, CURRENT);
  }

  static boolean isNewer(String version, String than) {
    Matcher candidate = MAJOR_MINOR.matcher(version);
    Matcher base = MAJOR_MINOR.matcher(than);
    if (!candidate.lookingAt() || !base.lookingAt()) {
      return false;
    }
    int major = Integer.compare(Integer.parseInt(candidate.group(1)), Integer.parseInt(base.group(1)));
    return major != 0 ? major > 0
        : Integer.parseInt(candidate.group(2)) > Integer.parseInt(base.group(2));
  }

  private static String read() {
    Properties properties = new Properties();
    try (InputStream in = FrameworkVersion.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version", "unknown");
  }
}
