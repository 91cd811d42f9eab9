package io.kftrainer.framework.runner;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link LinkageError} of a plugin in words its author acts on: the JVM says {@code
 * io/kftrainer/framework/model/NewerHelper} or {@code class file version 65.0}; this says which class is missing
 * and why, or which Java the plugin was built for. The cause is nearly always a jar built against other versions
 * than the operator runs: a newer Java, a newer {@code trainer-framework}, a library missing from the plugin's
 * directory.
 */
public final class LinkageErrors {

  private static final Pattern CLASS_FILE_VERSION = Pattern.compile("class file version (\\d+)");
  private static final String UNINITIALIZED = "Could not initialize class ";
  /** Class file major version of Java 1.0 to 1.1 minus one: Java 8 is 52, Java 17 61, Java 21 65. */
  private static final int JAVA_OFFSET = 44;

  private LinkageErrors() {
  }

  /**
   * {@code error} in words, starting with its type: {@code NoClassDefFoundError: io.kftrainer.framework.model.X,
   * which this trainer-framework (0.1.0) does not have: the plugin was built against a newer trainer-framework}.
   */
  public static String describe(LinkageError error) {
    String type = error.getClass().getSimpleName();
    String message = error.getMessage() == null ? "" : error.getMessage();
    if (error instanceof UnsupportedClassVersionError) {
      return builtForNewerJava(message).orElse(type + ": " + message);
    }
    if (error instanceof NoClassDefFoundError) {
      if (message.startsWith(UNINITIALIZED)) {
        return type + ": " + message.substring(UNINITIALIZED.length()) + " could not be initialized: its static "
            + "initializer failed earlier";
      }
      return type + ": " + missingClass(className(message));
    }
    if (error instanceof IncompatibleClassChangeError) {
      // NoSuchMethodError, NoSuchFieldError, AbstractMethodError, IncompatibleClassChangeError itself
      return type + ": " + message + ": the plugin was built against another version of that class";
    }
    return type + ": " + message;
  }

  /**
   * Why the class {@code name} ({@code a.b.C}), which a plugin needs, cannot be found: a framework or API class
   * of a newer version, or a library that is neither in the plugin's jars nor in the operator.
   */
  public static String missingClass(String name) {
    if (name.startsWith("io.kftrainer.framework.")) {
      return name + ", which this trainer-framework (" + FrameworkVersion.current() + ") does not have: the plugin "
          + "was built against a newer trainer-framework";
    }
    if (name.startsWith("io.kftrainer.api.")) {
      return name + ", which this operator's API model (" + FrameworkVersion.current() + ") does not have: the "
          + "plugin was built against a newer trainer-api";
    }
    return name + ", which neither the plugin's jars nor the operator have: put the library's jar in the plugin's "
        + "directory";
  }

  /**
   * {@code built for Java 21, this operator runs Java 17}, from an {@link UnsupportedClassVersionError}'s message
   * ({@code ... (class file version 65.0), this version of the Java Runtime only recognizes ...}).
   */
  static Optional<String> builtForNewerJava(String message) {
    Matcher version = CLASS_FILE_VERSION.matcher(message);
    if (!version.find()) {
      return Optional.empty();
    }
    int java = Integer.parseInt(version.group(1)) - JAVA_OFFSET;
    int slash = message.indexOf(" has been compiled");
    String what = slash > 0 ? className(message.substring(0, slash)) + " is " : "";
    return Optional.of(what + "built for Java " + java + ", this operator runs Java " + Runtime.version().feature());
  }

  /** {@code a.b.C} from the JVM's {@code a/b/C}. */
  static String className(String internalName) {
    return internalName.replace('/', '.');
  }
}
