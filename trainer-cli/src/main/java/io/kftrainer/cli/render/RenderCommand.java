package io.kftrainer.cli.render;

import ch.qos.logback.classic.Level;
import io.kftrainer.framework.runner.PluginCalls;
import io.kftrainer.operator.app.OperatorConfig;
import io.kftrainer.operator.command.AllowPluginLoadFailuresOption;
import io.kftrainer.operator.command.Logging;
import io.kftrainer.operator.command.PluginsDirOption;
import io.kftrainer.operator.command.Streams;
import io.kftrainer.operator.plugins.OperatorPlugins;
import io.kftrainer.cli.yaml.OutputFormat;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code trainer-operator render}: prints the objects the operator would apply for the TrainJobs of the input,
 * without a cluster ({@link Renderer}). Only the objects go to stdout; warnings ({@code Warning: ...}) and errors go
 * to stderr. Exit 1 when any TrainJob is invalid or a plugin fails, with nothing on stdout, and when a plugin jar
 * cannot be loaded, unless {@code --allow-plugin-load-failures} (a missing validation plugin would render what a
 * cluster rejects). Secrets are printed with their values redacted ({@link RedactedSecrets}).
 */
@Command(name = "render", mixinStandardHelpOptions = true,
    description = {"Print the objects the operator would create for TrainJobs, without a cluster.",
        "Input documents may mix TrainJobs, TrainingRuntimes and ClusterTrainingRuntimes; a TrainJob may also "
            + "refer to a runtime shipped with the operator (torch-distributed, ...).",
        "The values of Secrets (MPI's SSH keys) are printed as [redacted]."})
public final class RenderCommand implements Callable<Integer> {

  private final Streams streams;

  @Spec
  private CommandSpec spec;

  @Mixin
  private PluginsDirOption pluginsDir;

  @Mixin
  private AllowPluginLoadFailuresOption allowLoadFailures;

  @Option(names = {"-f", "--filename"}, required = true, paramLabel = "PATH",
      description = "A YAML file (multi-document), a directory of *.yaml/*.yml files, or - for stdin. Repeatable.")
  private List<String> paths;

  @Option(names = {"-o", "--output"}, defaultValue = "yaml", paramLabel = "FORMAT",
      description = "yaml (documents separated by ---) or json (a v1 List). Default: yaml.")
  private OutputFormat output;

  public RenderCommand(Streams streams) {
    this.streams = streams;
  }

  @Override
  public Integer call() {
    Logging.setLevel(Level.WARN);
    PrintWriter err = spec.commandLine().getErr();
    List<InputFile> files;
    try {
      files = InputFile.read(paths, streams.in());
    } catch (InputFile.InputException e) {
      err.println(e.getMessage());
      return 1;
    }
    OperatorPlugins plugins = pluginsDir.load();
    if (!allowLoadFailures.allowed() && plugins.loadError().isPresent()) {
      err.println("Error: " + plugins.loadError().get().getMessage());
      return 1;
    }
    plugins.problems().forEach(problem -> err.println("Warning: rendering without plugin " + problem.path() + ": "
        + problem.message()));
    RenderResult result = new Renderer(plugins.runner()
        .withCalls(PluginCalls.withTimeout(OperatorConfig.DEFAULT_PLUGIN_CALL_TIMEOUT))).render(files);
    result.warnings().forEach(warning -> err.println("Warning: " + warning));
    result.errors().forEach(err::println);
    if (!result.succeeded()) {
      return 1;
    }
    spec.commandLine().getOut().print(output.format(RedactedSecrets.of(result.objects())));
    return 0;
  }
}
