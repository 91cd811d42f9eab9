package io.kftrainer.e2e.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.framework.model.AbstractContainerInfo;
import io.kftrainer.framework.model.AbstractPodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.Configurable;
import io.kftrainer.framework.spi.ExtensionPoint;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.StatusContext;
import io.kftrainer.framework.spi.ValidationContext;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every Java and XML snippet of docs/writing-plugins.md is compiled by the build: each is preceded by a marker
 * naming its source, and must equal it.
 *
 * <ul>
 *   <li>{@code <!-- snippet: path#tag -->}: the lines between {@code tag::tag[]} and {@code end::tag[]} of a file
 *       of this repository compiled by the build (this package, run as tests);</li>
 *   <li>{@code <!-- snippet: archetype:path -->}: a file of the plugin archetype as a generated project holds it
 *       (ArchetypeTest generates and builds that project);</li>
 *   <li>{@code <!-- snippet: generated:name -->}: signatures read from the framework's classes.</li>
 * </ul>
 *
 * After a change of a source, {@code -Dtrainer.updateDocs=true} rewrites the snippets; review the diff.
 */
class WritingPluginsDocTest {

  private static final Path PROJECT = Path.of(System.getProperty("e2e.projectDir", "..")).toAbsolutePath().normalize();
  private static final Path DOC = PROJECT.resolve("docs/writing-plugins.md");
  private static final Path ARCHETYPE = PROJECT.resolve("trainer-plugin-archetype/target/classes/archetype-resources");
  /** The answers of the archetype:generate command in the doc. */
  private static final Map<String, String> ARCHETYPE_PROPERTIES = Map.of(
      "${package}", "com.example.quota", "${groupId}", "com.example.quota", "${artifactId}", "node-quota",
      "${pluginName}", "node-quota", "${version}", "0.1.0-SNAPSHOT");
  private static final Pattern SNIPPET =
      Pattern.compile("<!-- snippet: (\\S+) -->\\n```(\\w+)\\n(.*?)```\\n", Pattern.DOTALL);
  private static final Pattern FENCE = Pattern.compile("^```(java|xml)$", Pattern.MULTILINE);

  @Test
  void everySnippetEqualsItsCompiledSource() throws IOException {
    String doc = Files.readString(DOC);
    Matcher matcher = SNIPPET.matcher(doc);
    StringBuilder updated = new StringBuilder();
    List<String> stale = new ArrayList<>();
    int snippets = 0;
    while (matcher.find()) {
      snippets++;
      String expected = source(matcher.group(1));
      if (!matcher.group(3).equals(expected)) {
        stale.add(matcher.group(1));
      }
      matcher.appendReplacement(updated, Matcher.quoteReplacement(
          "<!-- snippet: " + matcher.group(1) + " -->\n```" + matcher.group(2) + "\n" + expected + "```\n"));
    }
    matcher.appendTail(updated);
    if (Boolean.getBoolean("trainer.updateDocs")) {
      Files.writeString(DOC, updated.toString());
      stale.clear();
    }
    assertThat(snippets).isGreaterThanOrEqualTo(6);
    assertThat(stale).as("snippets that differ from their source (refresh with -Dtrainer.updateDocs=true)")
        .isEmpty();
  }

  @Test
  void everyJavaAndXmlSnippetNamesItsSource() throws IOException {
    String doc = Files.readString(DOC);
    long fences = FENCE.matcher(doc).results().count();
    long marked = SNIPPET.matcher(doc).results().filter(m -> m.group(2).matches("java|xml")).count();

    assertThat(marked).as("```java and ```xml blocks with a snippet marker").isEqualTo(fences);
  }

  private static String source(String reference) throws IOException {
    if (reference.startsWith("generated:")) {
      return generated(reference.substring("generated:".length()));
    }
    if (reference.startsWith("archetype:")) {
      String text = Files.readString(ARCHETYPE.resolve(reference.substring("archetype:".length())));
      for (var property : ARCHETYPE_PROPERTIES.entrySet()) {
        text = text.replace(property.getKey(), property.getValue());
      }
      return text;
    }
    String[] parts = reference.split("#", 2);
    return region(Files.readString(PROJECT.resolve(parts[0])), parts[1], reference);
  }

  private static String region(String text, String tag, String reference) {
    List<String> lines = text.lines().toList();
    int start = indexOf(lines, "tag::" + tag + "[]", reference);
    int end = indexOf(lines, "end::" + tag + "[]", reference);
    List<String> body = lines.subList(start + 1, end);
    int indent = body.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
        .min().orElse(0);
    return body.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).collect(Collectors.joining("\n")) + "\n";
  }

  private static int indexOf(List<String> lines, String marker, String reference) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(marker)) {
        return i;
      }
    }
    throw new AssertionError("no " + marker + " for snippet " + reference);
  }

  private static String generated(String name) {
    return switch (name) {
      case "extension-points" -> extensionPoints();
      case "contexts" -> signatures(List.of(ValidationContext.class, BuildContext.class, StatusContext.class,
          ObjectLookup.class));
      case "runtime-info" -> signatures(List.of(RuntimeInfo.class, AbstractPodSet.class, AbstractContainerInfo.class));
      default -> throw new AssertionError("no generated snippet " + name);
    };
  }

  /** One line per method of each extension point: what a plugin implements. */
  private static String extensionPoints() {
    List<Class<?>> types = new ArrayList<>(List.of(Plugin.class));
    Arrays.stream(ExtensionPoint.values()).forEach(point -> types.add(point.type()));
    types.add(Configurable.class);
    StringBuilder text = new StringBuilder("// package io.kftrainer.framework.spi\n");
    for (Class<?> type : types) {
      text.append("interface ").append(type.getSimpleName()).append(typeParameters(type))
          .append(type == Plugin.class ? "" : " extends Plugin").append(" {\n");
      for (Method method : methods(type)) {
        text.append("  ").append(method.isDefault() ? "default " : "").append(signature(method)).append(";\n");
      }
      text.append("}\n");
    }
    return text.toString();
  }

  /** The public accessors of each class, as a plugin calls them. */
  private static String signatures(List<Class<?>> types) {
    StringBuilder text = new StringBuilder();
    for (Class<?> type : types) {
      text.append("// ").append(type.getName()).append('\n');
      for (Method method : methods(type)) {
        text.append(signature(method)).append(";\n");
      }
    }
    return text.toString();
  }

  private static List<Method> methods(Class<?> type) {
    return Arrays.stream(type.getDeclaredMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic())
        .filter(m -> !List.of("equals", "hashCode", "toString").contains(m.getName()))
        .sorted(Comparator.comparing(Method::getName).thenComparing(Method::getParameterCount))
        .toList();
  }

  private static String signature(Method method) {
    String generics = method.getTypeParameters().length == 0 ? ""
        : Arrays.stream(method.getTypeParameters()).map(t -> t.getName() + " extends "
            + simple(t.getBounds()[0].getTypeName())).collect(Collectors.joining(", ", "<", "> "));
    String parameters = Arrays.stream(method.getParameters())
        .map(p -> simple(p.getParameterizedType().getTypeName()) + " " + p.getName())
        .collect(Collectors.joining(", "));
    return generics + simple(method.getGenericReturnType().getTypeName()) + " " + method.getName()
        + "(" + parameters + ")";
  }

  private static String typeParameters(Class<?> type) {
    return type.getTypeParameters().length == 0 ? ""
        : Arrays.stream(type.getTypeParameters()).map(Object::toString).collect(Collectors.joining(", ", "<", ">"));
  }

  /** {@code java.util.List<io.fabric8...HasMetadata>} as {@code List<HasMetadata>}. */
  private static String simple(String typeName) {
    return typeName.replaceAll("\\b[a-z][a-z0-9_]*\\.(?=[a-zA-Z])", "").replace("$", ".");
  }
}
