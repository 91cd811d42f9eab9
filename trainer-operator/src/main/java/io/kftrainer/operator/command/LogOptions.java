package io.kftrainer.operator.command;

import ch.qos.logback.classic.Level;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The log options of {@code run}, named and valued as upstream's manager's (controller-runtime's zap flags), so
 * that its Deployment arguments work here:
 *
 * <ul>
 *   <li>{@code --zap-log-level}: {@code info} (default), {@code error}, {@code panic} (as {@code error}: logback has
 *       no higher level), {@code debug}, or a verbosity {@code N > 0}. {@code debug} and every {@code N} turn on
 *       the operator's own debug logs ({@code io.kftrainer}); libraries stay at INFO, their debug output is of
 *       no use to a cluster operator (set {@code -Dlogback.configurationFile} for that).</li>
 *   <li>{@code --zap-encoder}: {@code console} (default, text lines) or {@code json} ({@link JsonLogEncoder}).</li>
 *   <li>{@code --zap-stacktrace-level}: {@code info}, {@code error} (default), {@code panic} (as {@code error}):
 *       the level from which a logged exception carries its stack trace ({@link StacktraceLevel}).</li>
 *   <li>{@code --zap-devel}: zap's development defaults: level {@code debug}, stack traces from {@code warn}; the
 *       options above still win. Unlike zap's, the default encoder is {@code console} either way.</li>
 * </ul>
 */
public final class LogOptions {

  static final String OPERATOR_LOGGERS = "io.kftrainer";

  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Option(names = "--zap-log-level", paramLabel = "LEVEL",
      description = "Log level: info, error, panic (as error), debug, or a verbosity N > 0 (any N: debug logs of "
          + "the operator itself, as upstream's --zap-log-level=2) (default: info, with --zap-devel debug).")
  private String level;

  @Option(names = "--zap-stacktrace-level", paramLabel = "LEVEL",
      description = "Level from which a logged exception carries its stack trace: info, error, panic (as error); "
          + "below it, one line (default: error, with --zap-devel warn).")
  private String stacktraceLevel;

  @Option(names = "--zap-devel", paramLabel = "BOOLEAN", arity = "0..1", defaultValue = "false",
      fallbackValue = "true", description = "Development defaults, as zap's: level debug, stack traces from warn.")
  private boolean devel;

  @Option(names = "--zap-encoder", paramLabel = "ENCODER", defaultValue = "console",
      description = "Log format: console (text lines) or json (one object per line: level, ts, logger, msg and "
          + "context fields, as upstream's manager) (default: ${DEFAULT-VALUE}).")
  private String encoder;

  /**
   * What the options ask for: the root level, the operator's own level, whether to write JSON, and the level from
   * which exceptions carry their stack trace.
   */
  record Settings(Level root, Level operator, boolean json, Level stacktrace) {
  }

  /**
   * Applies the options to the process's logging.
   *
   * @throws ParameterException (a usage error) for a value that is not one of the above
   */
  public void apply() {
    Settings settings = settings();
    Logging.setLevel(settings.root());
    Logging.setLevel(OPERATOR_LOGGERS, settings.operator());
    StacktraceLevel.set(settings.stacktrace());
    if (settings.json()) {
      Logging.useJson();
    }
  }

  Settings settings() {
    boolean json = switch (encoder.toLowerCase(Locale.ROOT)) {
      case "json" -> true;
      case "console" -> false;
      default -> throw new ParameterException(spec.commandLine(), "Invalid value for option '--zap-encoder': \""
          + encoder + "\" (expected console or json)");
    };
    Level stacktrace = stacktraceLevel == null ? (devel ? Level.WARN : Level.ERROR)
        : switch (stacktraceLevel.toLowerCase(Locale.ROOT)) {
          case "info" -> Level.INFO;
          case "error", "panic" -> Level.ERROR;
          default -> throw new ParameterException(spec.commandLine(), "Invalid value for option "
              + "'--zap-stacktrace-level': \"" + stacktraceLevel + "\" (expected info, error or panic)");
        };
    String given = level != null ? level : devel ? "debug" : "info";
    return switch (given.toLowerCase(Locale.ROOT)) {
      case "info" -> new Settings(Level.INFO, Level.INFO, json, stacktrace);
      case "error", "panic" -> new Settings(Level.ERROR, Level.ERROR, json, stacktrace);
      case "debug" -> new Settings(Level.INFO, Level.DEBUG, json, stacktrace);
      default -> {
        if (!given.matches("[1-9][0-9]*")) {
          throw new ParameterException(spec.commandLine(), "Invalid value for option '--zap-log-level': \""
              + given + "\" (expected info, error, panic, debug or an integer > 0)");
        }
        yield new Settings(Level.INFO, Level.DEBUG, json, stacktrace);
      }
    };
  }
}
