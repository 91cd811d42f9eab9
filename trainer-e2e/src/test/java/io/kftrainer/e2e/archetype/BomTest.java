package io.kftrainer.e2e.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * trainer-bom has no parent (importing it must not import the operator's own pins), so it repeats the versions
 * plugins share with the operator: they must stay those the operator is built with.
 */
class BomTest {

  private static final Path PROJECT = Path.of(System.getProperty("e2e.projectDir", "..")).toAbsolutePath().normalize();

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"fabric8.version", "junit.version", "assertj.version", "auto-service.version"})
  void theBomPinsTheVersionTheOperatorIsBuiltWith(String property) throws IOException {
    assertThat(property(PROJECT.resolve("trainer-bom/pom.xml"), property))
        .isEqualTo(property(PROJECT.resolve("pom.xml"), property));
  }

  private static String property(Path pom, String name) throws IOException {
    Matcher matcher = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(pom));
    assertThat(matcher.find()).as(name + " in " + pom).isTrue();
    return matcher.group(1);
  }
}
