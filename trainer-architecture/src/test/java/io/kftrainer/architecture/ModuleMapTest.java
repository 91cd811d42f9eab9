package io.kftrainer.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's module map names every module of the parent pom, in the pom's order, and nothing else. */
class ModuleMapTest {

  private static final Path ROOT = Path.of("..");
  private static final Pattern POM_MODULE = Pattern.compile("<module>([^<]+)</module>");
  private static final Pattern MAP_ROW = Pattern.compile("^\\| `([^`]+)` \\|");

  @Test
  void theReadmeModuleMapMatchesTheParentPom() throws IOException {
    List<String> modules = new ArrayList<>();
    Matcher module = POM_MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
    while (module.find()) {
      modules.add(module.group(1));
    }

    assertThat(mapRows(Files.readString(ROOT.resolve("README.md")))).as("README.md, section Modules")
        .containsExactlyElementsOf(modules);
  }

  private static List<String> mapRows(String readme) {
    String section = readme.substring(readme.indexOf("\n## Modules"));
    int next = section.indexOf("\n## ", 1);
    List<String> rows = new ArrayList<>();
    for (String line : (next < 0 ? section : section.substring(0, next)).split("\n")) {
      Matcher row = MAP_ROW.matcher(line);
      if (row.find()) {
        rows.add(row.group(1));
      }
    }
    return rows;
  }
}
