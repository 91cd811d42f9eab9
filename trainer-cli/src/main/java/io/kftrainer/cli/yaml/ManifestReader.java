package io.kftrainer.cli.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads multi-document YAML (and so JSON) manifests into {@link Manifest}s, with anchors, aliases and merge keys
 * ({@link YamlTrees}, within its limits against alias bombs). Empty documents are skipped, as {@code kubectl} does;
 * whether a document is a Kubernetes object is {@link Manifest#check()}'s business, so that every bad document of
 * a file can be reported.
 */
public final class ManifestReader {

  private static final Pattern SNAKEYAML_MARK = Pattern.compile("\\s*in '[^']*', line (\\d+), column (\\d+):?");

  private ManifestReader() {
  }

  /**
   * Every non-empty document of {@code text}, in order.
   *
   * @param source how messages name the text: a file name, or {@code -} for stdin
   * @throws ManifestException if the text is not YAML
   */
  public static List<Manifest> read(String text, String source) {
    List<Manifest> manifests = new ArrayList<>();
    try {
      for (JsonNode tree : YamlTrees.read(text)) {
        if (!isEmpty(tree)) {
          manifests.add(new Manifest(source, manifests.size() + 1, tree));
        }
      }
    } catch (YAMLException e) {
      throw new ManifestException(source, describe(e.getMessage(), null), e);
    } catch (JsonProcessingException e) {
      throw new ManifestException(source, describe(e.getOriginalMessage(), e.getLocation()), e);
    } catch (IOException e) {
      throw new ManifestException(source, String.valueOf(e.getMessage()), e);
    }
    return manifests;
  }

  /** An empty document: null, or an empty string (depending on the SnakeYAML version). */
  private static boolean isEmpty(JsonNode tree) {
    return tree == null || tree.isNull() || tree.isMissingNode() || (tree.isTextual() && tree.asText().isEmpty());
  }

  /**
   * The parser's complaint on one line, with where it was found: SnakeYAML's message without its source excerpts,
   * at the last position it names (Jackson's own location can lag behind it).
   */
  private static String describe(String message, JsonLocation location) {
    String original = message == null ? "unknown error" : message;
    List<String> complaints = new ArrayList<>();
    String position = null;
    for (String line : original.split("\n")) {
      Matcher mark = SNAKEYAML_MARK.matcher(line);
      if (mark.matches()) {
        position = "line " + mark.group(1) + ", column " + mark.group(2);
      } else if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        complaints.add(line.strip());
      }
    }
    if (position == null && location != null && location.getLineNr() > 0) {
      position = "line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
    return "invalid YAML" + (position == null ? "" : " at " + position) + ": " + String.join("; ", complaints);
  }

  static String firstLine(String message) {
    if (message == null) {
      return "unknown error";
    }
    String trimmed = message.strip();
    int newline = trimmed.indexOf('\n');
    return newline < 0 ? trimmed : trimmed.substring(0, newline).strip();
  }
}
