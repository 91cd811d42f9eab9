package io.kftrainer.operator.command;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

class LogConfiguratorTest {

  @Test
  void logbackFindsIt() {
    assertThat(ServiceLoader.load(ch.qos.logback.classic.spi.Configurator.class).stream()
        .map(ServiceLoader.Provider::type)).contains(LogConfigurator.class);
  }

  @Test
  void logsGoToStderrAtInfoWithoutFabric8sUnstableVersionWarning() {
    LoggerContext context = new LoggerContext();
    LogConfigurator configurator = new LogConfigurator();
    configurator.setContext(context);

    assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);

    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.INFO);
    Appender<ILoggingEvent> appender = root.getAppender("STDERR");
    assertThat(appender).isInstanceOf(ConsoleAppender.class);
    assertThat(((ConsoleAppender<ILoggingEvent>) appender).getTarget()).isEqualTo("System.err");
    assertThat(context.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils")
        .isEnabledFor(Level.WARN)).isFalse();
    assertThat(context.getLogger("io.fabric8.kubernetes.client.informers").isEnabledFor(Level.WARN)).isTrue();
  }

  @Test
  void anExceptionBelowTheStacktraceLevelIsOneLineOfItsMessagesAboveItItsStackTrace() {
    LoggerContext context = new LoggerContext();
    TextLogLayout layout = new TextLogLayout();
    layout.setContext(context);
    layout.start();
    ch.qos.logback.classic.Logger logger = context.getLogger("io.kftrainer.operator.Reconciler");
    Exception failure = new IllegalStateException("plugin boom failed", new java.io.IOException("refused"));

    String warning = layout.doLayout(new LoggingEvent("test", logger, Level.WARN, "Cannot build", failure, null));
    String error = layout.doLayout(new LoggingEvent("test", logger, Level.ERROR, "Cannot start", failure, null));

    assertThat(warning).endsWith(" - Cannot build" + System.lineSeparator()
        + "  IllegalStateException: plugin boom failed; caused by: IOException: refused" + System.lineSeparator());
    assertThat(error).contains("Cannot start" + System.lineSeparator()
        + "java.lang.IllegalStateException: plugin boom failed").contains("\tat ").contains("Caused by: ");
  }

  @Test
  void aConfigurationFileOfOnesOwnWins() {
    LoggerContext context = new LoggerContext();
    LogConfigurator configurator = new LogConfigurator();
    configurator.setContext(context);
    System.setProperty("logback.configurationFile", "/etc/trainer/logback.xml");
    try {
      assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
      assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNull();
    } finally {
      System.clearProperty("logback.configurationFile");
    }
  }
}
