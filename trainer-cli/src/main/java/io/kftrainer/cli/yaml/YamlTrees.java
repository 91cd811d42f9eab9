package io.kftrainer.cli.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The documents of a YAML stream as JSON trees, with anchors ({@code &res}), aliases ({@code *res}) and merge keys
 * ({@code <<: *defaults}) resolved as kubectl resolves them. SnakeYAML's composer resolves them (merge keys with
 * {@code mergeOnCompose}: a mapping's own keys win, of several merged mappings the earlier wins); Jackson then reads
 * each resolved document, so scalars keep the typing of every other YAML Jackson reads in this project.
 *
 * <p>A JSON tree shares nothing, so each alias becomes a copy. Limits keep a hostile file from exhausting memory or
 * the stack: SnakeYAML's {@link LoaderOptions} ({@value #MAX_ALIASES} aliases of collections per document, nesting
 * {@value #MAX_DEPTH} deep as Jackson allows, {@value #MAX_CODE_POINTS} code points), and, because a few aliases of
 * aliases multiply a document (an alias bomb), at most {@value #MAX_EXPANSION} nodes added by aliases per document.
 */
final class YamlTrees {

  static final int MAX_ALIASES = 50;
  static final int MAX_DEPTH = 1000;
  /** Ten times what kube-apiserver accepts in one request (3 MiB): a file holds many objects. */
  static final int MAX_CODE_POINTS = 32 * 1024 * 1024;
  static final int MAX_EXPANSION = 1_000_000;

  private static final ObjectMapper JACKSON = new ObjectMapper(YAMLFactory.builder().build());

  private YamlTrees() {
  }

  /**
   * Every document of {@code text}, in order; an empty document is null or a missing node.
   *
   * @throws YAMLException for text that is not YAML or exceeds a limit, with SnakeYAML's message and position
   */
  static List<JsonNode> read(String text) throws IOException {
    Yaml yaml = yaml();
    List<JsonNode> documents = new ArrayList<>();
    for (Node document : yaml.composeAll(new StringReader(text))) {
      StringWriter resolved = new StringWriter();
      yaml.serialize(new Expansion().copy(document, 0), resolved);
      documents.add(JACKSON.readTree(resolved.toString()));
    }
    return documents;
  }

  private static Yaml yaml() {
    LoaderOptions loading = new LoaderOptions();
    loading.setMergeOnCompose(true);
    loading.setMaxAliasesForCollections(MAX_ALIASES);
    loading.setNestingDepthLimit(MAX_DEPTH);
    loading.setCodePointLimit(MAX_CODE_POINTS);
    DumperOptions writing = new DumperOptions();
    writing.setSplitLines(false);
    return new Yaml(new SafeConstructor(loading), new Representer(writing), writing, loading);
  }

  /** A copy of a composed document with every alias expanded; refuses recursion and runaway expansion. */
  private static final class Expansion {
    private final Set<Node> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> path = Collections.newSetFromMap(new IdentityHashMap<>());
    private long copies;

    Node copy(Node node, int depth) {
      distinct.add(node);
      if (++copies - distinct.size() > MAX_EXPANSION) {
        throw new YAMLException("aliases expand the document by more than " + MAX_EXPANSION + " nodes");
      }
      if (depth > MAX_DEPTH) {
        throw new YAMLException("aliases nest the document deeper than " + MAX_DEPTH + " levels");
      }
      if (node instanceof ScalarNode scalar) {
        return new ScalarNode(scalar.getTag(), scalar.getValue(), null, null, scalar.getScalarStyle());
      }
      if (!path.add(node)) {
        throw new YAMLException("found a recursive alias *" + node.getAnchor() + ": it contains itself");
      }
      Node copy;
      if (node instanceof SequenceNode sequence) {
        List<Node> items = new ArrayList<>(sequence.getValue().size());
        sequence.getValue().forEach(item -> items.add(copy(item, depth + 1)));
        copy = new SequenceNode(sequence.getTag(), items, DumperOptions.FlowStyle.BLOCK);
      } else {
        List<NodeTuple> tuples = new ArrayList<>();
        ((MappingNode) node).getValue().forEach(tuple -> tuples.add(
            new NodeTuple(copy(tuple.getKeyNode(), depth + 1), copy(tuple.getValueNode(), depth + 1))));
        copy = new MappingNode(node.getTag(), tuples, DumperOptions.FlowStyle.BLOCK);
      }
      path.remove(node);
      return copy;
    }
  }
}
