package io.kftrainer.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every example says whether it runs in {@code local}: a row of examples/README.md's "In local" table, and for one
 * that does not, an {@code In local:} paragraph in its header saying what it needs. Those that run are applied by
 * the tests the table names ({@link TrainingTest} and the e2e {@code OptimizationJobTest}).
 */
class ExamplesInLocalTest {

  private static final Pattern ROW = Pattern.compile("^\\| `([^`]+\\.yaml)` \\| (Yes|No)\\b.*\\|.+\\|$",
      Pattern.MULTILINE);

  @Test
  void everyExampleIsInTheTableAndTheOnesThatDoNotRunSayWhyInTheirHeader() throws IOException {
    Path examples = TrainingTest.examples();
    String readme = Files.readString(examples.resolve("README.md"));
    Map<String, String> rows = new TreeMap<>();
    Matcher m = ROW.matcher(readme.substring(readme.indexOf("## In `local`")));
    while (m.find()) {
      rows.put(m.group(1), m.group(2));
    }
    try (Stream<Path> files = Files.list(examples)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted())
          .containsExactlyElementsOf(rows.keySet());
    }
    for (Map.Entry<String, String> row : rows.entrySet()) {
      String header = Files.readString(examples.resolve(row.getKey())).lines().takeWhile(l -> l.startsWith("#"))
          .reduce("", (a, b) -> a + b + "\n");
      if (row.getValue().equals("No")) {
        assertThat(header).as(row.getKey()).contains("# In local:");
      }
      assertThat(header).as(row.getKey()).doesNotContain("trainer-local/target/trainer.jar");
    }
    assertThat(rows).containsEntry("torch-trainjob.yaml", "Yes").containsEntry("hpo-torch.yaml", "Yes");
  }
}
