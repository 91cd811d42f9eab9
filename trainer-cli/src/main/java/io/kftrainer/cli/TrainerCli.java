package io.kftrainer.cli;

import io.kftrainer.webhook.HttpServerNoDelay;
import io.kftrainer.operator.command.Streams;
import io.kftrainer.cli.render.RenderCommand;
import picocli.CommandLine;

/**
 * The {@code trainer} command line: the operator image's {@code run} (from {@link io.kftrainer.operator.Main}) plus
 * {@code render}, {@code plugins}, {@code local} and {@code apiserver}, which only this jar carries (the operator
 * image has no YAML input, embedded API server or local executor).
 */
public final class TrainerCli {

  private TrainerCli() {
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

  /** The operator's command tree, named {@code trainer}, with this jar's commands added. */
  public static CommandLine commandLine(Streams streams) {
    CommandLine commandLine = io.kftrainer.operator.Main.commandLine(streams, new RenderCommand(streams),
        new PluginsCommand(), new LocalCommand(streams), new ApiServerCommand(streams));
    commandLine.getCommandSpec().name("trainer");
    return commandLine;
  }
}
