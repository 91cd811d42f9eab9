package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class PatchesTest {

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
    assertThat(Patches.mergePatch(json(target), json(patch))).isEqualTo(json(expected));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{'containers':[{'name':'a','x':1},{'name':'b'}]} | {'containers':[{'name':'a','y':2}]} | {'containers':[{'name':'a','x':1,'y':2},{'name':'b'}]}",
      "{'env':[{'name':'a'},{'name':'b'}]}     | {'env':[{'name':'b','$patch':'delete'}]} | {'env':[{'name':'a'}]}",
      "{'volumes':[{'name':'a'}]}              | {'volumes':[{'name':'z'}]}            | {'volumes':[{'name':'a'},{'name':'z'}]}",
      "{'volumeMounts':[{'name':'v','mountPath':'/a'}]} | {'volumeMounts':[{'name':'v','mountPath':'/b'}]} | {'volumeMounts':[{'name':'v','mountPath':'/a'},{'name':'v','mountPath':'/b'}]}",
      "{'ports':[{'containerPort':80,'name':'a'}]} | {'ports':[{'containerPort':80,'name':'b'}]} | {'ports':[{'containerPort':80,'name':'b'}]}",
      "{'ports':[{'port':80},{'port':81}]}     | {'ports':[{'port':81,'targetPort':9}]} | {'ports':[{'port':80},{'port':81,'targetPort':9}]}",
      "{'tolerations':[{'key':'a'}]}           | {'tolerations':[{'key':'b'}]}         | {'tolerations':[{'key':'b'}]}",
      "{'args':['a']}                          | {'args':['b']}                        | {'args':['b']}",
      "{'finalizers':['a']}                    | {'finalizers':['b','a']}              | {'finalizers':['a','b']}",
      "{'other':[{'name':'a','x':1}]}          | {'other':[{'name':'a'}]}              | {'other':[{'name':'a'}]}",
      "{'f':['x','y']}                         | {'$deleteFromPrimitiveList/f':['x']}  | {'f':['y']}",
      "{'m':{'a':1,'b':2}}                     | {'m':{'$patch':'replace','c':3}}      | {'m':{'c':3}}",
      "{'m':{'a':1}}                           | {'m':{'$patch':'delete'}}             | {}",
      "{'p':[1,2]}                             | {'p':[3],'$retainKeys':['p']}         | {'p':[3]}"})
  void strategicMergePatchWithTheCoreKindsMergeKeys(String target, String patch, String expected) throws Exception {
    assertThat(Patches.strategicMergePatch(json(target), json(patch))).isEqualTo(json(expected));
  }
}
