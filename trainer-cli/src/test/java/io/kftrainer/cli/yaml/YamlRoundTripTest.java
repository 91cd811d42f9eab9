package io.kftrainer.cli.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Property: every string {@code render} writes as YAML reads back as the same string in YAML 1.1 parsers, with
 * SnakeYAML's resolver (YAML 1.1 rules) and with PyYAML (the test reports itself skipped where
 * {@code /usr/bin/python3} has no {@code yaml} module; Debian's {@code python3-yaml}). Strings are drawn from the
 * tokens that resolvers type (digits, signs, colons, dots, exponents, radix prefixes, underscores, keywords,
 * dates), with a fixed seed, plus the known cases.
 */
class YamlRoundTripTest {

  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final long SEED = 20261123L;
  private static final int GENERATED = 3000;
  private static final List<String> KNOWN = List.of("1:4", "2:8", "1:30:00", "190:20:30.15", "yes", "No", "on",
      "OFF", "y", "N", "~", "null", "", "0755", "0o17", "0x1F", "0b101", "1_000", "+12", "-0", ".5", "1.", "1e3",
      "6.8523015e+5", ".inf", "-.Inf", ".NaN", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
      "<<", "=", "true", "FALSE", "012", "09", "3.14", "1:2:3", "x:y", "a b", "#hash", "- dash", "key: value",
      "@at", "`tick", "'quote", "\"double", "!tag", "&anchor", "*alias", "%percent", "{brace}", "[bracket]");
  private static final String[] TOKENS = {"0", "1", "7", "9", "12", "59", "60", ":", ".", "-", "+", "_", "e", "E",
      "x", "o", "b", "inf", "nan", "Inf", "NaN", "yes", "no", "on", "off", "y", "n", "true", "false", "null", "~",
      "T", "Z", " ", "a", "1:4", "2001-12-14", "<<", "="};

  @Test
  void everyStringReadsBackTheSameWithSnakeYamlsYaml11Resolver() {
    Map<String, String> data = strings();

    String yaml = OutputFormat.YAML.format(List.of(configMap(data)));

    Yaml snakeYaml = new Yaml(new SafeConstructor(new LoaderOptions()));
    Map<String, Object> document = snakeYaml.load(yaml.substring("---\n".length()));
    Map<String, Object> read = new LinkedHashMap<>();
    ((Map<?, ?>) document.get("data")).forEach((key, value) -> read.put(String.valueOf(key), value));
    assertThat(read).isEqualTo(new LinkedHashMap<String, Object>(data));
  }

  @Test
  void everyStringReadsBackTheSameWithPyYaml() throws Exception {
    assumeTrue(Files.isExecutable(PYTHON) && run(null, PYTHON.toString(), "-c", "import yaml").exitCode == 0,
        "PyYAML is not installed for " + PYTHON + " (Debian: python3-yaml)");
    Map<String, String> data = strings();
    String yaml = OutputFormat.YAML.format(List.of(configMap(data)));

    Result loaded = run(yaml, PYTHON.toString(), "-c", "import json, sys, yaml\n"
        + "for document in yaml.safe_load_all(sys.stdin):\n"
        + "    print(json.dumps({k: [type(v).__name__, str(v)] for k, v in document['data'].items()}))\n");

    assertThat(loaded.exitCode).as(loaded.output).isZero();
    JsonNode read = new ObjectMapper().readTree(loaded.output);
    Map<String, String> wrong = new LinkedHashMap<>();
    data.forEach((key, value) -> {
      JsonNode typed = read.get(key);
      if (typed == null || !"str".equals(typed.get(0).asText()) || !value.equals(typed.get(1).asText())) {
        wrong.put(value, String.valueOf(typed));
      }
    });
    assertThat(wrong).as("strings PyYAML reads as something else").isEmpty();
  }

  @Test
  void theElasticNodeRangeIsQuoted() {
    assertThat(OutputFormat.YAML.format(List.of(configMap(Map.of("PET_NNODES", "1:4")))))
        .contains("PET_NNODES: \"1:4\"");
  }

  /** The known cases and {@value #GENERATED} generated strings, as values keyed {@code k0}, {@code k1}, ... */
  private static Map<String, String> strings() {
    List<String> values = new ArrayList<>(KNOWN);
    Random random = new Random(SEED);
    for (int i = 0; i < GENERATED; i++) {
      StringBuilder value = new StringBuilder();
      int tokens = 1 + random.nextInt(4);
      for (int t = 0; t < tokens; t++) {
        value.append(TOKENS[random.nextInt(TOKENS.length)]);
      }
      values.add(value.toString().strip());
    }
    Map<String, String> data = new LinkedHashMap<>();
    for (int i = 0; i < values.size(); i++) {
      data.put("k" + i, values.get(i));
    }
    return data;
  }

  private static ConfigMap configMap(Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName("strings").endMetadata().withData(data).build();
  }

  private record Result(int exitCode, String output) {
  }

  private static Result run(String stdin, String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try (var in = process.getOutputStream()) {
      if (stdin != null) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " did not finish");
    }
    return new Result(process.exitValue(), output);
  }
}
