package io.kftrainer.operator.command;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;

/**
 * The text log line: {@link LogConfigurator#PATTERN}, then the event's exception with its stack trace at and above
 * the {@link StacktraceLevel}, or as one indented line below it.
 */
final class TextLogLayout extends LayoutBase<ILoggingEvent> {

  private final PatternLayout line = new PatternLayout();

  @Override
  public void start() {
    line.setContext(getContext());
    // %nopex: the exception is this layout's to write
    line.setPattern(LogConfigurator.PATTERN + "%nopex");
    line.start();
    super.start();
  }

  @Override
  public String doLayout(ILoggingEvent event) {
    String text = line.doLayout(event);
    IThrowableProxy throwable = event.getThrowableProxy();
    if (throwable == null) {
      return text;
    }
    return StacktraceLevel.wanted(event.getLevel())
        ? text + ThrowableProxyUtil.asString(throwable) + CoreConstants.LINE_SEPARATOR
        : text + "  " + StacktraceLevel.summary(throwable) + CoreConstants.LINE_SEPARATOR;
  }
}
