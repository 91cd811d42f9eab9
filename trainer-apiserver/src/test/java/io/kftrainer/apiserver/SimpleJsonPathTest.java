package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class SimpleJsonPathTest {

  private static final JsonNode OBJECT;

  static {
    try {
      OBJECT = new ObjectMapper().readTree(("{'metadata':{'name':'x','labels':{'app.kubernetes.io/name':'n'},"
          + "'creationTimestamp':'2026-01-01T00:00:00Z'},"
          + "'spec':{'suspend':false,'replicas':3,'list':[1,2,3]},"
          + "'status':{'conditions':[{'type':'Created','status':'True'},{'type':'Failed','status':'False'},"
          + "{'type':'Complete','status':'True'}]}}").replace('\'', '"'));
    } catch (Exception e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      ".metadata.name                                        | x",
      "{.metadata.name}                                      | x",
      "$.metadata.name                                       | x",
      ".status.conditions[-1:].type                          | Complete",
      ".status.conditions[0].type                            | Created",
      ".status.conditions[-1].type                           | Complete",
      ".status.conditions[1:2].type                          | Failed",
      ".status.conditions[?(@.type==\"Complete\")].status    | True",
      ".status.conditions[?(@.type=='Failed')].status        | False",
      ".status.conditions[?(@.status!=\"True\")].type        | Failed",
      ".metadata.labels['app.kubernetes.io/name']            | n",
      ".metadata.labels.app\\.kubernetes\\.io/name           | n",
      ".spec.replicas                                        | 3",
      ".spec.suspend                                         | false",
      ".spec.list[*]                                         | 1"})
  void evaluates(String path, String expected) {
    assertThat(SimpleJsonPath.first(OBJECT, path).asText()).isEqualTo(expected);
  }

  @Test
  void missingOrInvalidYieldsNothing() {
    assertThat(SimpleJsonPath.first(OBJECT, ".status.missing")).isNull();
    assertThat(SimpleJsonPath.first(OBJECT, ".status.conditions[9].type")).isNull();
    assertThat(SimpleJsonPath.evaluate(OBJECT, ".status.conditions[")).isEmpty();
    assertThat(SimpleJsonPath.evaluate(OBJECT, ".spec.list[*]")).hasSize(3);
  }

  @Test
  void cellsAreTyped() {
    Instant now = Instant.parse("2026-01-01T00:05:30Z");
    assertThat(TableConverter.cellFor("date", OBJECT.at("/metadata/creationTimestamp"), now).asText())
        .isEqualTo("5m30s");
    assertThat(TableConverter.cellFor("integer", OBJECT.at("/spec/replicas"), now).asInt()).isEqualTo(3);
    assertThat(TableConverter.cellFor("boolean", OBJECT.at("/spec/suspend"), now).isBoolean()).isTrue();
    assertThat(TableConverter.cellFor("string", OBJECT.at("/spec/list"), now).asText()).isEqualTo("[1,2,3]");
    assertThat(TableConverter.cellFor("string", null, now)).isNull();
  }

  @ParameterizedTest
  @CsvSource({"0, 0s", "59, 59s", "119, 119s", "120, 2m", "150, 2m30s", "600, 10m", "10799, 179m", "10800, 3h",
      "12600, 3h30m", "28800, 8h", "172800, 2d", "180000, 2d2h", "691200, 8d", "63072000, 2y", "252288000, 8y"})
  void humanDurations(long seconds, String expected) {
    assertThat(HumanDuration.of(Duration.ofSeconds(seconds))).isEqualTo(expected);
  }
}
