package io.kftrainer.framework.loader;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.kftrainer.framework.runner.LinkageErrors;
import io.kftrainer.framework.runner.PluginSetupException;
import io.kftrainer.framework.spi.Configurable;
import io.kftrainer.framework.spi.Plugin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The administrator's plugin configuration: a YAML mapping with one section per plugin name, bound to each
 * {@link Configurable} plugin's type and applied once at start-up.
 *
 * <pre>
 * example-node-quota:
 *   maxNodes: 4
 * </pre>
 *
 * Every problem is collected before start-up stops: a section for no loaded plugin (a typo) or for a plugin that
 * takes no configuration, an unknown field, a value of the wrong type, a value the type's constructor rejects.
 * Each names the plugin and the field path ({@code example-node-quota.maxNodes}).
 */
public final class PluginConfiguration {

  private static final ObjectMapper YAML = new ObjectMapper(
      new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER))
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private final String source;
  private final Map<String, JsonNode> sections;
  private final Map<String, JsonNode> defaults;

  private PluginConfiguration(String source, Map<String, JsonNode> sections) {
    this(source, sections, Map.of());
  }

  private PluginConfiguration(String source, Map<String, JsonNode> sections, Map<String, JsonNode> defaults) {
    this.source = source;
    this.sections = sections;
    this.defaults = defaults;
  }

  /**
   * The same configuration over sections the operator derives from its own settings (as upstream hands plugins
   * its configuration): a plugin's section here is the base, and the fields of the file's section replace its
   * fields. A default section for a plugin that is not loaded is ignored.
   */
  public PluginConfiguration withDefaults(Map<String, ? extends Map<String, ?>> operatorSections) {
    Map<String, JsonNode> merged = new LinkedHashMap<>(defaults);
    operatorSections.forEach((name, section) -> merged.put(name, YAML.valueToTree(section)));
    return new PluginConfiguration(source, sections, merged);
  }

  /** No configuration: every configurable plugin gets its defaults. */
  public static PluginConfiguration empty() {
    return new PluginConfiguration("no plugin configuration", Map.of());
  }

  /** Reads {@code file}; an unreadable file or one that is not a mapping of plugin names stops start-up. */
  public static PluginConfiguration read(Path file) {
    try {
      return parse(Files.readString(file), file.toString());
    } catch (IOException e) {
      throw new PluginSetupException("cannot read plugin configuration " + file + ": " + e.getMessage());
    }
  }

  /** Parses YAML text; {@code source} names it in errors. */
  public static PluginConfiguration parse(String yaml, String source) {
    JsonNode root;
    try {
      root = yaml.isBlank() ? YAML.createObjectNode() : YAML.readTree(yaml);
    } catch (JacksonException e) {
      throw new PluginSetupException("plugin configuration " + source + " is not YAML: " + e.getOriginalMessage());
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      root = YAML.createObjectNode();
    }
    if (!root.isObject()) {
      throw new PluginSetupException("plugin configuration " + source
          + " must be a mapping of plugin names to their settings, not " + root.getNodeType());
    }
    Map<String, JsonNode> sections = new LinkedHashMap<>();
    root.properties().forEach(entry -> sections.put(entry.getKey(), entry.getValue()));
    return new PluginConfiguration(source, sections);
  }

  /**
   * Binds each configurable plugin's section (an empty one if absent) and calls {@link Configurable#configure}.
   *
   * @return the effective configuration of each configurable plugin, by plugin name, in plugin order
   * @throws PluginSetupException listing every problem, before any plugin is configured
   */
  public Map<String, Object> apply(List<Plugin> plugins) {
    List<String> problems = new ArrayList<>();
    Set<String> names = plugins.stream().map(Plugin::name).collect(Collectors.toCollection(TreeSet::new));
    sections.keySet().stream().filter(name -> !names.contains(name)).forEach(name ->
        problems.add(name + ": no plugin of this name is loaded (loaded: " + String.join(", ", names) + ")"));
    Map<String, Object> bound = new LinkedHashMap<>();
    for (Plugin plugin : plugins) {
      JsonNode section = sections.get(plugin.name());
      if (plugin instanceof Configurable<?> configurable) {
        bind(configurable, section, problems).ifPresent(config -> bound.put(plugin.name(), config));
      } else if (section != null) {
        problems.add(plugin.name() + ": this plugin takes no configuration");
      }
    }
    if (!problems.isEmpty()) {
      throw new PluginSetupException("invalid plugin configuration (" + source + "):\n  "
          + String.join("\n  ", problems));
    }
    plugins.forEach(plugin -> {
      if (plugin instanceof Configurable<?> configurable) {
        configure(configurable, bound.get(plugin.name()));
      }
    });
    return bound;
  }

  /** The configuration as YAML, as {@code plugins} shows it. */
  public static String toYaml(Object config) {
    try {
      return YAML.writeValueAsString(config);
    } catch (JacksonException e) {
      return String.valueOf(config);
    }
  }

  private Optional<Object> bind(Configurable<?> plugin, JsonNode section, List<String> problems) {
    JsonNode node = section == null || section.isNull() ? YAML.createObjectNode() : section;
    JsonNode base = defaults.get(plugin.name());
    if (base instanceof com.fasterxml.jackson.databind.node.ObjectNode merged && node.isObject()) {
      merged = merged.deepCopy();
      merged.setAll((com.fasterxml.jackson.databind.node.ObjectNode) node);
      node = merged;
    }
    try {
      return Optional.of(YAML.treeToValue(node, plugin.configType()));
    } catch (JsonMappingException e) {
      problems.add(plugin.name() + path(e) + ": " + message(e));
    } catch (JacksonException | IllegalArgumentException e) {
      problems.add(plugin.name() + ": " + e.getMessage());
    } catch (LinkageError e) {
      problems.add(plugin.name() + ": " + LinkageErrors.describe(e));
    }
    return Optional.empty();
  }

  @SuppressWarnings("unchecked")
  private static <C> void configure(Configurable<C> plugin, Object config) {
    try {
      plugin.configure((C) config);
    } catch (RuntimeException e) {
      throw new PluginSetupException(plugin.name() + ": configuration rejected: " + e.getMessage());
    } catch (LinkageError e) {
      throw new PluginSetupException(plugin.name() + ": configure failed: " + LinkageErrors.describe(e));
    }
  }

  /** {@code .limits[0].max}: where in the section the problem is. */
  private static String path(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append('.').append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static String message(JsonMappingException e) {
    if (e instanceof UnrecognizedPropertyException unknown) {
      List<String> known = new ArrayList<>();
      if (unknown.getKnownPropertyIds() != null) {
        unknown.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
      }
      known.sort(null);
      return "unknown field (known: " + String.join(", ", known) + ")";
    }
    if (e instanceof ValueInstantiationException && e.getCause() != null) {
      return e.getCause().getMessage();
    }
    String message = e.getOriginalMessage();
    int details = message.indexOf('\n');
    return details < 0 ? message : message.substring(0, details);
  }
}
