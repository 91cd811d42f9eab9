package io.kftrainer.operator.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code --zap-log-level} and {@code --zap-encoder} with the values upstream's Deployment passes. */
class LogOptionsTest {

  @Command
  static final class Options {
    @Mixin
    LogOptions logging = new LogOptions();
  }

  private static LogOptions.Settings settings(String... args) {
    Options options = new Options();
    new CommandLine(options).parseArgs(args);
    return options.logging.settings();
  }

  @Test
  void levelsAsControllerRuntimesFlag() {
    assertThat(settings()).isEqualTo(new LogOptions.Settings(Level.INFO, Level.INFO, false, Level.ERROR));
    assertThat(settings("--zap-log-level=2")).as("upstream's manifests")
        .isEqualTo(new LogOptions.Settings(Level.INFO, Level.DEBUG, false, Level.ERROR));
    assertThat(settings("--zap-log-level=debug")).isEqualTo(new LogOptions.Settings(Level.INFO, Level.DEBUG, false, Level.ERROR));
    assertThat(settings("--zap-log-level=error")).isEqualTo(new LogOptions.Settings(Level.ERROR, Level.ERROR, false, Level.ERROR));
    assertThat(settings("--zap-log-level=panic")).isEqualTo(new LogOptions.Settings(Level.ERROR, Level.ERROR, false, Level.ERROR));
    assertThat(settings("--zap-encoder=json").json()).isTrue();
  }

  @Test
  void stackTracesFromErrorAsZapsProductionDefaultsFromWarnWithZapDevel() {
    assertThat(settings("--zap-stacktrace-level=info").stacktrace()).isEqualTo(Level.INFO);
    assertThat(settings("--zap-stacktrace-level=panic").stacktrace()).isEqualTo(Level.ERROR);
    assertThat(settings("--zap-devel")).as("zap's development defaults")
        .isEqualTo(new LogOptions.Settings(Level.INFO, Level.DEBUG, false, Level.WARN));
    assertThat(settings("--zap-devel=true", "--zap-log-level=info", "--zap-stacktrace-level=error"))
        .as("the options win over --zap-devel").isEqualTo(new LogOptions.Settings(Level.INFO, Level.INFO, false,
            Level.ERROR));
    assertThat(settings("--zap-devel=false")).isEqualTo(settings());
    assertThatThrownBy(() -> settings("--zap-stacktrace-level=warn")).isInstanceOf(
        CommandLine.ParameterException.class).hasMessage("Invalid value for option '--zap-stacktrace-level': "
        + "\"warn\" (expected info, error or panic)");
  }

  @Test
  void otherValuesAreUsageErrors() {
    assertThatThrownBy(() -> settings("--zap-log-level=0")).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessage("Invalid value for option '--zap-log-level': \"0\" (expected info, error, panic, debug or an "
            + "integer > 0)");
    assertThatThrownBy(() -> settings("--zap-encoder=xml")).isInstanceOf(CommandLine.ParameterException.class)
        .hasMessage("Invalid value for option '--zap-encoder': \"xml\" (expected console or json)");
  }

  @Test
  void jsonReplacesTheEncoderOfTheStderrAppender() {
    LoggerContext context = new LoggerContext();
    LogConfigurator configurator = new LogConfigurator();
    configurator.setContext(context);
    configurator.configure(context);

    Logging.useJson(context);

    ConsoleAppender<ILoggingEvent> stderr = (ConsoleAppender<ILoggingEvent>) context.getLogger(Logger.ROOT_LOGGER_NAME)
        .getAppender(LogConfigurator.APPENDER);
    assertThat(stderr.getEncoder()).isInstanceOf(JsonLogEncoder.class);
    assertThat(stderr.isStarted()).isTrue();
  }
}
