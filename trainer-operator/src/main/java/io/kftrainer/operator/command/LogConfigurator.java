package io.kftrainer.operator.command;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

import java.util.List;

/**
 * The processes' logging, set up in code (logback finds it through {@code ServiceLoader}) rather than from a
 * {@code logback.xml}: parsing XML cost about 80 ms of every start, a twentieth of {@code run}'s time to ready.
 * <ul>
 *   <li>Logs go to stderr only: stdout belongs to the commands' output ({@code render} prints manifests there).</li>
 *   <li>The root level is INFO; {@code render} and {@code plugins} lower it to WARN when they start
 *   ({@link Logging}).</li>
 *   <li>An exception's stack trace is written at and above the {@link StacktraceLevel} only ({@link TextLogLayout}).</li>
 *   <li>fabric8's warning, once per resource type, that a {@code v1alpha1} version is unstable is off: every
 *   TrainJob and runtime is {@code v1alpha1}, as upstream's are, so it only ever says that.</li>
 * </ul>
 * A configuration of one's own still wins: {@code -Dlogback.configurationFile=...}, or a {@code logback-test.xml}
 * on the class path (tests), makes this configurator step aside for logback's own.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class LogConfigurator extends ContextAwareBase implements Configurator {

  static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{36} - %msg%n";
  /** The name of the stderr appender, which {@link Logging#useJson()} re-encodes. */
  static final String APPENDER = "STDERR";
  static final List<String> QUIET_LOGGERS = List.of("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY) != null
        || LogConfigurator.class.getClassLoader().getResource(ContextInitializer.TEST_AUTOCONFIG_FILE) != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    TextLogLayout layout = new TextLogLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName(APPENDER);
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(stderr);
    QUIET_LOGGERS.forEach(name -> context.getLogger(name).setLevel(Level.ERROR));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
