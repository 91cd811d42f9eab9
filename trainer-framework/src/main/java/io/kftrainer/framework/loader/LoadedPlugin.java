package io.kftrainer.framework.loader;

import io.kftrainer.framework.spi.Plugin;

/**
 * A plugin and where it came from: the jar (or class directory) of its class.
 */
public record LoadedPlugin(Plugin plugin, String origin) {

  static LoadedPlugin of(Plugin plugin) {
    var source = plugin.getClass().getProtectionDomain().getCodeSource();
    return new LoadedPlugin(plugin, source == null ? "unknown" : source.getLocation().getPath());
  }
}
