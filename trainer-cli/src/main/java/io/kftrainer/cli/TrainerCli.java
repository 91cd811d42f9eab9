package io.kftrainer.cli;

import io.kftrainer.webhook.HttpServerNoDelay;
import io.kftrainer.operator.command.RunCommand;
import io.kftrainer.operator.command.Streams;
import io.kftrainer.cli.render.RenderCommand;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * The {@code trainer} command line: the operator image's {@code run} (from {@link io.kftrainer.operator.Main}) plus
 * {@code render}, {@code plugins}, {@code local} and {@code apiserver}, which only this jar carries (the operator
 * image has no YAML input, embedded API server or local executor).
 */
public final class TrainerCli {

  /**
   * Every subcommand by the name its {@code @Command} gives, in the order of {@code --help}. A command line that
   * names one of them builds only that one: picocli builds a command's model by reflection, and the unused ones
   * cost {@code local}'s start about 0.1 s.
   */
  static final Map<String, Function<Streams, Object>> SUBCOMMANDS = subcommands();

  private TrainerCli() {
  }

  public static void main(String[] args) {
    // before the embedded API server, the first JDK HttpServer of local mode, exists
    HttpServerNoDelay.enable();
    System.exit(execute(Streams.system(), args));
  }

  /** Runs the command line {@code args} with these streams and returns the exit code. */
  public static int execute(Streams streams, String... args) {
    Function<Streams, Object> asked = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
    CommandLine commandLine = asked == null ? commandLine(streams)
        : named(io.kftrainer.operator.Main.tree(streams, List.of(asked.apply(streams))));
    return io.kftrainer.operator.Main.execute(commandLine, streams, args);
  }

  /** The operator's command tree, named {@code trainer}, with this jar's commands added. */
  public static CommandLine commandLine(Streams streams) {
    return named(io.kftrainer.operator.Main.tree(streams,
        SUBCOMMANDS.values().stream().map(subcommand -> subcommand.apply(streams)).toList()));
  }

  private static Map<String, Function<Streams, Object>> subcommands() {
    Map<String, Function<Streams, Object>> subcommands = new LinkedHashMap<>();
    add(subcommands, RunCommand.class, streams -> new RunCommand());
    add(subcommands, RenderCommand.class, RenderCommand::new);
    add(subcommands, PluginsCommand.class, streams -> new PluginsCommand());
    add(subcommands, LocalCommand.class, LocalCommand::new);
    add(subcommands, ApiServerCommand.class, ApiServerCommand::new);
    return Collections.unmodifiableMap(subcommands);
  }

  /** Adds {@code type}'s factory under the name its {@code @Command} gives, read without building its model. */
  private static void add(Map<String, Function<Streams, Object>> subcommands, Class<?> type,
      Function<Streams, Object> factory) {
    subcommands.put(type.getAnnotation(CommandLine.Command.class).name(), factory);
  }

  private static CommandLine named(CommandLine commandLine) {
    commandLine.getCommandSpec().name("trainer");
    return commandLine;
  }
}
