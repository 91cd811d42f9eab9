package io.kftrainer.framework.loader;

import io.kftrainer.framework.spi.Plugin;
import java.util.ArrayList;
import java.util.List;

/** Plugins found, and what could not be loaded. */
public record PluginSet(List<LoadedPlugin> plugins, List<LoadProblem> problems) {

  public PluginSet {
    plugins = List.copyOf(plugins);
    problems = List.copyOf(problems);
  }

  public List<Plugin> instances() {
    return plugins.stream().map(LoadedPlugin::plugin).toList();
  }

  public PluginSet plus(PluginSet other) {
    List<LoadedPlugin> allPlugins = new ArrayList<>(plugins);
    allPlugins.addAll(other.plugins);
    List<LoadProblem> allProblems = new ArrayList<>(problems);
    allProblems.addAll(other.problems);
    return new PluginSet(allPlugins, allProblems);
  }
}
