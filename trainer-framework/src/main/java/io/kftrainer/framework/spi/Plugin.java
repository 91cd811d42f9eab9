package io.kftrainer.framework.spi;

/**
 * A named contribution to the framework. A plugin implements one or more extension points
 * ({@link EnforceMLPolicy}, {@link ComponentBuilder}, ...) and is discovered with {@link java.util.ServiceLoader}
 * ({@code @AutoService(Plugin.class)}), so it needs a public no-argument constructor.
 *
 * <p>Plugins are shared by every reconcile and must be stateless (or thread-safe).
 */
public interface Plugin {

  /** Unique name, used in logs, errors and conditions. */
  String name();

  /**
   * Position of this plugin within every phase it takes part in: lower runs first, ties are broken by name.
   * The order is declared rather than left to the class path so that the same inputs always give the same
   * objects. Built-in plugins use multiples of 100; third-party plugins default to after them.
   */
  default int order() {
    return 1000;
  }
}
