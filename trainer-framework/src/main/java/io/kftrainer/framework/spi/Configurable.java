package io.kftrainer.framework.spi;

/**
 * A plugin an administrator configures without a rebuild: its section of the operator's plugin configuration
 * file ({@code --plugin-config}, one top-level key per plugin name) is bound to {@link #configType()} with
 * Jackson and handed to {@link #configure} once, at start-up, before any phase runs.
 *
 * <p>The type is a record or a POJO with public accessors; unknown fields and values of the wrong type stop
 * start-up with the plugin name and the field path, and so does an {@link IllegalArgumentException} thrown by its
 * constructor (name the field in its message). A plugin without a section gets the type bound from an empty
 * section ({@code {}}), so defaults belong in the type (a record's compact constructor, a POJO's field
 * initializers). The bound object is what the {@code plugins} command shows as the plugin's effective
 * configuration.
 *
 * <p>Not an extension point: it adds no phase, only a start-up call.
 *
 * @param <C> the configuration type
 */
public interface Configurable<C> extends Plugin {

  /** The type the plugin's section binds to. */
  Class<C> configType();

  /** Called once at start-up with the bound configuration, before the plugin takes part in any phase. */
  void configure(C config);
}
