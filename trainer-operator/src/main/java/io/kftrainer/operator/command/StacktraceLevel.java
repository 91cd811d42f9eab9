package io.kftrainer.operator.command;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.IThrowableProxy;

/**
 * The level at and above which a logged exception's stack trace is written, as zap's stacktrace level
 * ({@code --zap-stacktrace-level}): {@code error} by default, {@code warn} with {@code --zap-devel}. Below it an
 * exception is one line, its message and those of its causes; a warning about a plugin that failed in one TrainJob
 * then takes a line, not twenty. Both encoders (text and JSON) ask it.
 */
public final class StacktraceLevel {

  private static volatile Level threshold = Level.ERROR;

  private StacktraceLevel() {
  }

  public static void set(Level level) {
    threshold = level;
  }

  /** Whether an event of {@code level} carries its exception's stack trace. */
  public static boolean wanted(Level level) {
    return level.isGreaterOrEqual(threshold);
  }

  /** {@code IllegalStateException: boom; caused by: IOException: refused}: the exception without its stack. */
  public static String summary(IThrowableProxy throwable) {
    StringBuilder text = new StringBuilder();
    for (IThrowableProxy cause = throwable; cause != null; cause = cause.getCause()) {
      if (cause != throwable) {
        text.append("; caused by: ");
      }
      String name = cause.getClassName();
      text.append(name.substring(name.lastIndexOf('.') + 1));
      if (cause.getMessage() != null) {
        text.append(": ").append(cause.getMessage());
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return text.toString();
  }
}
