package io.kftrainer.apiserver;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys a request body repeats inside one object, which a tree parser silently resolves (the last value wins, in
 * Jackson as in Go) and which kube-apiserver reports when a request asks for {@code fieldValidation=Warn} or
 * {@code Strict}. Two wordings, as kube's two decoders word them:
 *
 * <ul>
 *   <li>a JSON body, read by sigs.k8s.io/json's strict decoder: {@code duplicate field "data.a"}, one problem per
 *       repeated key, found where the key is read;</li>
 *   <li>a YAML body (and every apply body), read by sigs.k8s.io/yaml's strict converter: one error listing
 *       {@code line 4: key "a" already set in map} per repeated key, the line of its value, each reported once the
 *       value is read (go-yaml decodes a value before it stores it under its key).</li>
 * </ul>
 */
final class DuplicateFields {

  /** A repeated key: its path ({@code data.a}, {@code spec.list[0].b}), the key, and the line of its value. */
  record Duplicate(String path, String key, int line) {
  }

  private static final JsonFactory JSON = new JsonFactory();
  private static final YAMLFactory YAML = new YAMLFactory();
  /** How go-yaml's unmarshal errors begin; kube-apiserver strips it (or the longer one) from its warnings. */
  static final String YAML_ERRORS = "yaml: unmarshal errors:\n";

  private DuplicateFields() {
  }

  /** sigs.k8s.io/json's problems of a JSON (or YAML) body: {@code duplicate field "data.a"}, in reading order. */
  static List<String> jsonProblems(byte[] body) {
    List<String> problems = new ArrayList<>();
    for (Duplicate d : find(body, false)) {
      problems.add("duplicate field \"" + d.path() + "\"");
    }
    return problems;
  }

  /**
   * go-yaml's strict error for a body: {@code yaml: unmarshal errors:\n  line 3: key "a" already set in map} with
   * one line per repeated key; null when no key repeats.
   */
  static String yamlError(byte[] body) {
    List<Duplicate> duplicates = find(body, true);
    if (duplicates.isEmpty()) {
      return null;
    }
    List<String> lines = new ArrayList<>();
    for (Duplicate d : duplicates) {
      lines.add("line " + d.line() + ": key " + GoText.quote(d.key()) + " already set in map");
    }
    return YAML_ERRORS + "  " + String.join("\n  ", lines);
  }

  /**
   * The repeated keys of {@code body}, JSON or YAML (JSON when it starts with a brace or bracket, as
   * {@link KubeJson#parseYamlOrJson}), in kjson's order or, when {@code afterValue}, in go-yaml's; none when the body
   * does not parse (the parse of the object reports that).
   */
  static List<Duplicate> find(byte[] body, boolean afterValue) {
    String text = new String(body, StandardCharsets.UTF_8).trim();
    JsonFactory factory = text.startsWith("{") || text.startsWith("[") ? JSON : YAML;
    List<Duplicate> found = new ArrayList<>();
    try (JsonParser parser = factory.createParser(text)) {
      scan(parser, afterValue, found);
    } catch (IOException e) {
      return List.of();
    }
    return found;
  }

  /** One open object or list of the scan: its path, the keys seen (objects) or items read (lists). */
  private static final class Frame {
    final String path;
    final boolean object;
    final Set<String> keys = new HashSet<>();
    int items;
    String key;
    /** The repeated key whose value is being read, reported when it ends ({@code afterValue}). */
    Duplicate pending;

    Frame(String path, boolean object) {
      this.path = path;
      this.object = object;
    }

    /** The path of the value that starts now: the current key's, or the next item's. */
    String childPath() {
      if (object) {
        return path.isEmpty() ? key : path + "." + key;
      }
      return path + "[" + items++ + "]";
    }
  }

  private static void scan(JsonParser parser, boolean afterValue, List<Duplicate> found) throws IOException {
    Deque<Frame> frames = new ArrayDeque<>();
    JsonToken token;
    while ((token = parser.nextToken()) != null) {
      Frame frame = frames.peek();
      if (token == JsonToken.FIELD_NAME) {
        frame.key = parser.currentName();
        if (!frame.keys.add(frame.key)) {
          int line = parser.currentTokenLocation().getLineNr();
          Duplicate duplicate = new Duplicate(frame.path.isEmpty() ? frame.key : frame.path + "." + frame.key,
              frame.key, line);
          if (afterValue) {
            frame.pending = duplicate;
          } else {
            found.add(duplicate);
          }
        }
        continue;
      }
      if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
        frames.pop();
        valueEnded(frames.peek(), found);
        continue;
      }
      String path = frame == null ? "" : frame.childPath();
      if (frame != null && frame.pending != null) {
        // go-yaml names the line of the repeated key's value
        frame.pending = new Duplicate(frame.pending.path(), frame.pending.key(),
            parser.currentTokenLocation().getLineNr());
      }
      if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
        frames.push(new Frame(path, token == JsonToken.START_OBJECT));
      } else {
        valueEnded(frame, found);
      }
    }
  }

  private static void valueEnded(Frame frame, List<Duplicate> found) {
    if (frame != null && frame.pending != null) {
      found.add(frame.pending);
      frame.pending = null;
    }
  }
}
