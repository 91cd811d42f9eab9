package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Go's texts of values in kube-apiserver's messages. */
class GoTextTest {

  private static JsonNode json(String text) throws Exception {
    return new ObjectMapper().readTree(text);
  }

  @Test
  void quoteIsStrconvQuote() {
    assertThat(GoText.quote("a \"b\" \\ c\n\té")).isEqualTo("\"a \\\"b\\\" \\\\ c\\n\\té\"");
    assertThat(GoText.quote("\u0001")).isEqualTo("\"\\x01\"");
  }

  @Test
  void valueIsPercentPlusVOfADecodedDocument() throws Exception {
    assertThat(GoText.value(json("{\"spec\":{\"b\":[1,\"x\",true,null],\"a\":1.5},\"data\":{}}")))
        .isEqualTo("map[data:map[] spec:map[a:1.5 b:[1 x true <nil>]]]");
    assertThat(GoText.value(json("[1234567.5, 0.00001, 100.25, 2.0]"))).isEqualTo("[1.2345675e+06 1e-05 100.25 2]");
  }

  @Test
  void jsonIsGoMarshalOfADecodedDocument() throws Exception {
    assertThat(GoText.json(json("{\"z\":1,\"a\":{\"y\":\"<&>\",\"b\":[true,null]}}")))
        .isEqualTo("{\"a\":{\"b\":[true,null],\"y\":\"\\u003c\\u0026\\u003e\"},\"z\":1}");
  }
}
