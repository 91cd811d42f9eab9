package io.kftrainer.framework.runner;

/** The set of plugins cannot run: duplicate names, a capability provided twice, a required plugin missing. */
public final class PluginSetupException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PluginSetupException(String message) {
    super(message);
  }
}
