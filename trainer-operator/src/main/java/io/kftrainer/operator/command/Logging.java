package io.kftrainer.operator.command;

import ch.qos.logback.classic.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log level of the whole process. Logs always go to stderr ({@link LogConfigurator}); tool commands whose output
 * is for a human or a pipe ({@code render}, {@code plugins}) lower the level to WARN so that stderr shows only
 * what needs attention.
 */
public final class Logging {

  private Logging() {
  }

  public static void setLevel(Level level) {
    if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
      root.setLevel(level);
    }
  }
}
