package io.kftrainer.local;

import io.kftrainer.operator.app.HttpServerNoDelay;
import io.kftrainer.operator.cli.Streams;
import picocli.CommandLine;

/**
 * The {@code trainer} command-line distribution: the operator's commands ({@code run}, {@code render},
 * {@code plugins}, from {@link io.kftrainer.operator.Main}) plus {@code local} and {@code apiserver}, which only
 * this jar carries (the operator image has neither the embedded API server nor the local executor).
 */
public final class Main {

  private Main() {
  }

  public static void main(String[] args) {
    // before the embedded API server, the first JDK HttpServer of local mode, exists
    HttpServerNoDelay.enable();
    System.exit(execute(Streams.system(), args));
  }

  /** Runs the command line {@code args} with these streams and returns the exit code. */
  public static int execute(Streams streams, String... args) {
    return io.kftrainer.operator.Main.execute(commandLine(streams), streams, args);
  }

  /** The operator's command tree, named {@code trainer}, with {@code local} and {@code apiserver} added. */
  public static CommandLine commandLine(Streams streams) {
    CommandLine commandLine = io.kftrainer.operator.Main.commandLine(streams, new LocalCommand(streams),
        new ApiServerCommand(streams));
    commandLine.getCommandSpec().name("trainer");
    return commandLine;
  }
}
