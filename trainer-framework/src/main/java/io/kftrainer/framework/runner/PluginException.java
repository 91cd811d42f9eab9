package io.kftrainer.framework.runner;

/**
 * A plugin failed in a phase. The message names both, so that a condition or Event built from it tells the user
 * which plugin to look at; the cause keeps the plugin's own exception. A {@link LinkageError} (a class missing at
 * call time, a method of another version) is said in words ({@link LinkageErrors}).
 */
public final class PluginException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String plugin;
  private final String phase;

  public PluginException(String plugin, String phase, Throwable cause) {
    super("plugin " + plugin + " failed in " + phase + ": " + describe(cause), cause);
    this.plugin = plugin;
    this.phase = phase;
  }

  public String plugin() {
    return plugin;
  }

  public String phase() {
    return phase;
  }

  private static String describe(Throwable cause) {
    if (cause instanceof LinkageError linkage) {
      return LinkageErrors.describe(linkage);
    }
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
