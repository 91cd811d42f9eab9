package io.kftrainer.operator.command;

import picocli.CommandLine.Option;

/**
 * {@code --allow-plugin-load-failures} for the commands that only read plugins, {@code render} and {@code plugins}
 * ({@code @Mixin}); {@code run} and {@code local} take it with their {@link BehaviourOptions}.
 */
public final class AllowPluginLoadFailuresOption {

  @Option(names = "--allow-plugin-load-failures",
      description = "Go on without the plugin jars that cannot be loaded, with a warning for each (default: stop "
          + "with an error naming the jar and its cause, as run and local do).")
  private boolean allowed;

  public boolean allowed() {
    return allowed;
  }
}
