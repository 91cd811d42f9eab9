package io.kftrainer.operator.command;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log level of the whole process. Logs always go to stderr ({@link LogConfigurator}); tool commands whose output
 * is for a human or a pipe ({@code render}, {@code plugins}) lower the level to WARN so that stderr shows only
 * what needs attention; {@code run} sets level and format from {@link LogOptions}.
 */
public final class Logging {

  private Logging() {
  }

  public static void setLevel(Level level) {
    if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
      root.setLevel(level);
    }
  }

  /** Sets the level of the loggers under {@code name} (a package), e.g. the operator's own. */
  public static void setLevel(String name, Level level) {
    if (LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
      logger.setLevel(level);
    }
  }

  /**
   * Writes the logs as JSON lines ({@link JsonLogEncoder}) instead of text. Only the stderr appender of
   * {@link LogConfigurator} changes: a logback configuration of one's own keeps its encoders.
   */
  public static void useJson() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      useJson(context);
    }
  }

  static void useJson(LoggerContext context) {
    Appender<ILoggingEvent> appender = context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(
        LogConfigurator.APPENDER);
    if (appender instanceof ConsoleAppender<ILoggingEvent> console) {
      JsonLogEncoder json = new JsonLogEncoder();
      json.setContext(context);
      json.start();
      console.stop();
      console.setEncoder(json);
      console.start();
    }
  }
}
