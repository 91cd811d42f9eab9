package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class JsonMergePatchTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return MAPPER.readTree(text.replace('\'', '"'));
  }

  /** The examples of RFC 7386, appendix A. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{'a':'b'}                 | {'a':'c'}              | {'a':'c'}",
      "{'a':'b'}                 | {'b':'c'}              | {'a':'b','b':'c'}",
      "{'a':'b'}                 | {'a':null}             | {}",
      "{'a':'b','b':'c'}         | {'a':null}             | {'b':'c'}",
      "{'a':['b']}               | {'a':'c'}              | {'a':'c'}",
      "{'a':'c'}                 | {'a':['b']}            | {'a':['b']}",
      "{'a':{'b':'c'}}           | {'a':{'b':'d','c':null}} | {'a':{'b':'d'}}",
      "{'a':[{'b':'c'}]}         | {'a':[1]}              | {'a':[1]}",
      "['a','b']                 | ['c','d']              | ['c','d']",
      "{'a':'b'}                 | ['c']                  | ['c']",
      "{'a':'foo'}               | null                   | null",
      "{'a':'foo'}               | 'bar'                  | 'bar'",
      "{'e':null}                | {'a':1}                | {'e':null,'a':1}",
      "[1,2]                     | {'a':'b','c':null}     | {'a':'b'}",
      "{}                        | {'a':{'bb':{'ccc':null}}} | {'a':{'bb':{}}}"})
  void rfc7386(String target, String patch, String expected) throws Exception {
    assertThat(JsonMergePatch.mergePatch(json(target), json(patch))).isEqualTo(json(expected));
  }
}
