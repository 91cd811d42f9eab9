package io.kftrainer.operator.config;

import java.util.List;

/**
 * The Configuration file cannot be used: unreadable, not YAML, an unknown or misspelt field, a value of the wrong
 * type, or values that fail {@link ConfigurationValidation}. The message names the file and every problem with its
 * field path, one per line; {@code run} prints it and exits non-zero before it connects anywhere.
 */
public final class ConfigurationException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ConfigurationException(String source, List<String> problems) {
    super("invalid configuration " + source + ":\n  " + String.join("\n  ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem, e.g. {@code webhook.port: Invalid value: 0: must be between 1 and 65535}. */
  public List<String> problems() {
    return problems;
  }
}
