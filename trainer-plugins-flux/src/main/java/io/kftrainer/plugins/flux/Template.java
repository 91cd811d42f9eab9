package io.kftrainer.plugins.flux;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the scripts of this package ({@code init.sh}, {@code entrypoint.sh}, {@code broker.toml}) with its
 * {@code {{name}}} placeholders filled in. These files are upstream's templates
 * ({@code pkg/runtime/framework/plugins/flux/templates/}, Apache 2.0, The Kubeflow Authors) with each {@code %s}
 * named, so that the ConfigMap a TrainJob gets here is the one upstream writes.
 *
 * <p>Plain substitution rather than a template library: three fixed files, a few values, no logic. A placeholder
 * left without a value, or a value without its placeholder, is a programming error and throws.
 */
final class Template {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(\\w+)}}");

  private final String resource;
  private final String text;

  private Template(String resource, String text) {
    this.resource = resource;
    this.text = text;
  }

  static Template load(String resource) {
    try (InputStream in = Template.class.getResourceAsStream(resource)) {
      Objects.requireNonNull(in, () -> "no resource " + resource + " next to " + Template.class.getName());
      return new Template(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String render(Map<String, String> values) {
    var unused = new TreeSet<>(values.keySet());
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw new IllegalArgumentException(resource + ": no value for {{" + m.group(1) + "}}");
      }
      unused.remove(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    if (!unused.isEmpty()) {
      throw new IllegalArgumentException(resource + ": no placeholder for " + unused);
    }
    return out.toString();
  }
}
