package io.kftrainer.operator;

import io.kftrainer.framework.runner.LinkageErrors;
import io.kftrainer.webhook.HttpServerNoDelay;
import io.kftrainer.operator.command.ErrorHandler;
import io.kftrainer.operator.command.InstallRuntimesCommand;
import io.kftrainer.operator.command.RunCommand;
import io.kftrainer.operator.command.Streams;
import io.kftrainer.operator.command.VersionProvider;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code trainer-operator} executable of the operator image: {@code run}, and {@code install-runtimes} for the
 * chart's installer Job. The {@code trainer} command line ({@code io.kftrainer.cli.TrainerCli}) builds its own tree
 * with {@link #tree(Streams, List)}.
 *
 * <p>Every subcommand is registered in {@link #commandLine(Streams)}, which takes the standard streams as
 * arguments so that tests drive the real commands in process. Exit codes: 0 success, 1 failure (invalid input,
 * plugin error, an {@link Error} that reached the command line, said in one line), 2 usage error.
 */
@Command(name = "trainer-operator", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Kubeflow Trainer v2 operator for the JVM.")
public final class Main implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  @Spec
  private CommandSpec spec;

  public static void main(String[] args) {
    HttpServerNoDelay.enable();
    System.exit(execute(Streams.system(), args));
  }

  /** Runs the command line {@code args} with these streams and returns the exit code. */
  public static int execute(Streams streams, String... args) {
    return execute(commandLine(streams), streams, args);
  }

  /** Runs {@code args} on a command tree built by {@link #commandLine(Streams)} (or extended from it). */
  public static int execute(CommandLine commandLine, Streams streams, String... args) {
    int exitCode;
    try {
      exitCode = commandLine.execute(args);
    } catch (Error e) {
      // picocli hands Errors on; the command's own threads must not outlive its main thread
      LOG.debug("{} failed", args.length == 0 ? "trainer" : args[0], e);
      streams.err().println("Error: " + (e instanceof LinkageError linkage ? LinkageErrors.describe(linkage)
          : e.getMessage() == null ? e.toString() : e.getMessage()));
      exitCode = CommandLine.ExitCode.SOFTWARE;
    }
    streams.out().flush();
    streams.err().flush();
    return exitCode;
  }

  /**
   * The command tree: {@code trainer-operator} and every subcommand, plus {@code moreSubcommands} (a distribution's
   * own), writing to {@code streams}.
   */
  public static CommandLine commandLine(Streams streams, Object... moreSubcommands) {
    List<Object> subcommands = new ArrayList<>();
    subcommands.add(new RunCommand());
    subcommands.add(new InstallRuntimesCommand());
    subcommands.addAll(List.of(moreSubcommands));
    return tree(streams, subcommands);
  }

  /**
   * {@code trainer-operator} with exactly these subcommands, writing to {@code streams}: a command line that runs
   * one known subcommand need not build picocli's model of the others (by reflection, 0.08 s of {@code local}'s
   * start for the four others). Subcommands are added before the streams and the error handler are set: picocli
   * applies those only to the subcommands present at that moment.
   */
  public static CommandLine tree(Streams streams, List<Object> subcommands) {
    CommandLine commandLine = new CommandLine(new Main());
    for (Object subcommand : subcommands) {
      commandLine.addSubcommand(subcommand);
    }
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setOut(streams.out());
    commandLine.setErr(streams.err());
    commandLine.setExecutionExceptionHandler(new ErrorHandler());
    return commandLine;
  }

  /** Without a subcommand there is nothing to do: a usage error. */
  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing required subcommand");
  }
}
