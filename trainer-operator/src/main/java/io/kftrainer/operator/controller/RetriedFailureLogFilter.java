package io.kftrainer.operator.controller;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Keeps JOSDK from logging a failed build: its event processor logs every reconcile that threw, with the stack,
 * each time it is retried (a WARN and some 20 lines every few seconds for as long as a plugin fails), and offers
 * no setting to stop it. The reconciler says those failures itself, once per change ({@link ReconcileFailureLog}).
 * Any other exception of a reconcile is still logged by JOSDK.
 */
public final class RetriedFailureLogFilter extends TurboFilter {

  static final String EVENT_PROCESSOR = "io.javaoperatorsdk.operator.processing.event.EventProcessor";
  static final String UNCAUGHT_ERROR = "Uncaught error during event processing";

  /** Adds the filter to logback's context, once; nothing when SLF4J is bound to another logger. */
  public static synchronized void install() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
        && context.getTurboFilterList().stream().noneMatch(RetriedFailureLogFilter.class::isInstance)) {
      RetriedFailureLogFilter filter = new RetriedFailureLogFilter();
      filter.setContext(context);
      filter.start();
      context.addTurboFilter(filter);
    }
  }

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
      Throwable t) {
    if (format == null || !format.startsWith(UNCAUGHT_ERROR) || !EVENT_PROCESSOR.equals(logger.getName())) {
      return FilterReply.NEUTRAL;
    }
    Throwable thrown = t != null ? t
        : params != null && params.length > 0 && params[params.length - 1] instanceof Throwable last ? last : null;
    for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
      if (cause instanceof TrainJobReconciler.BuildFailedException) {
        return FilterReply.DENY;
      }
    }
    return FilterReply.NEUTRAL;
  }
}
