package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonSubsetTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("equal objects", "{\"a\":1,\"b\":\"x\"}", "{\"a\":1,\"b\":\"x\"}", true),
        Arguments.of("fields the server added do not matter",
            "{\"a\":1,\"metadata\":{\"uid\":\"u\",\"resourceVersion\":\"7\"}}", "{\"a\":1,\"metadata\":{}}", true),
        Arguments.of("a changed value is a difference", "{\"a\":1}", "{\"a\":2}", false),
        Arguments.of("a missing field is a difference", "{\"a\":1}", "{\"a\":1,\"b\":true}", false),
        Arguments.of("numbers compare by value", "{\"cpu\":1.0}", "{\"cpu\":1}", true),
        Arguments.of("a number is not its string", "{\"port\":\"80\"}", "{\"port\":80}", false),
        Arguments.of("list elements may gain defaults",
            "{\"env\":[{\"name\":\"A\",\"value\":\"1\",\"x\":0}]}", "{\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}", true),
        Arguments.of("a longer list is a difference", "{\"args\":[\"a\",\"b\"]}", "{\"args\":[\"a\"]}", false),
        Arguments.of("reordered lists are a difference", "{\"args\":[\"b\",\"a\"]}", "{\"args\":[\"a\",\"b\"]}", false),
        Arguments.of("empty desired values match absent ones", "{}", "{\"labels\":{},\"args\":[],\"x\":null}", true),
        Arguments.of("a non-empty desired value does not match an absent one", "{}", "{\"labels\":{\"a\":\"b\"}}",
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void desiredIsContainedInObserved(String description, String observed, String desired, boolean contained)
      throws Exception {
    assertThat(JsonSubset.contains(JSON.readTree(observed), JSON.readTree(desired))).isEqualTo(contained);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theComparisonIgnoresStatusAndServerMetadataOfTheDesiredObject(String description, String observed,
      String desired, boolean contained) throws Exception {
    JsonNode withStatus = JSON.readTree(desired);
    ((com.fasterxml.jackson.databind.node.ObjectNode) withStatus).putObject("status").put("phase", "Running");

    assertThat(JsonSubset.contains(JSON.readTree(observed), JsonSubset.comparable(withStatus))).isEqualTo(contained);
  }
}
