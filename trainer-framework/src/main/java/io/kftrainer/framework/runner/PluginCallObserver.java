package io.kftrainer.framework.runner;

/** Told of every plugin call {@link PluginCalls} makes, as it returns or fails (the operator's metrics). */
@FunctionalInterface
public interface PluginCallObserver {

  PluginCallObserver NONE = (plugin, phase, nanos, failed) -> { };

  /**
   * @param plugin the plugin's name
   * @param phase the extension point called ({@code ComponentBuilder}, {@code CustomValidation}...)
   * @param nanos how long the call took
   * @param failed whether it threw (a plugin that rejects an object returns its errors: not a failure)
   */
  void called(String plugin, String phase, long nanos, boolean failed);
}
