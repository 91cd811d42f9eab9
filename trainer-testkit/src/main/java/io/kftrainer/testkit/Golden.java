package io.kftrainer.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Golden files: the expected objects as readable multi-document YAML under {@code src/test/resources}. Objects
 * compare as the JSON trees of their YAML (so formatting, key order and the Java type of a number do not matter:
 * a model's {@code Long} and the file's {@code 1} are the same YAML); a mismatch shows both texts.
 *
 * <p>To write or refresh the files after an intended change, run the tests with {@code -Dtrainer.updateGolden=true}
 * and review the diff.
 */
public final class Golden {

  private static final boolean UPDATE = Boolean.getBoolean("trainer.updateGolden");

  private Golden() {
  }

  /**
   * Asserts that {@code objects} equal the documents of the golden file, a path relative to
   * {@code src/test/resources} of the module under test.
   */
  public static void assertMatches(List<?> objects, String goldenPath) {
    String actual = Yaml.dumpAll(objects);
    Path file = Path.of("src/test/resources").resolve(goldenPath);
    if (UPDATE) {
      write(file, actual);
      return;
    }
    String expected = read(file);
    List<JsonNode> expectedTrees = Yaml.trees(expected);
    List<JsonNode> actualTrees = Yaml.trees(actual);
    if (!expectedTrees.equals(actualTrees)) {
      assertThat(actual).as("objects differ from golden file %s (refresh with -Dtrainer.updateGolden=true)", file)
          .isEqualTo(Yaml.dumpAll(expectedTrees));
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("golden file " + file.toAbsolutePath() + " is missing; write it with "
          + "-Dtrainer.updateGolden=true and review it", e);
    }
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
