package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The merge of server-side apply and its field sets, with structured-merge-diff's documented answers (its
 * {@code typed} package's merge and field-set test tables): set and map lists keep the live order for live-only
 * items and the applied order for the applied ones.
 */
class ApplyMergeTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final MergeType TYPE = type();

  private static MergeType type() {
    try {
      return MergeType.root(MAPPER.readTree("""
          {"type": "object", "properties": {
            "setStr": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "setNumeric": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "number"}},
            "list": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key", "id"],
              "items": {"type": "object", "properties": {"key": {"type": "string"}, "id": {"type": "number"},
                "value": {"type": "object", "additionalProperties": {"type": "string"}}}}},
            "atomicList": {"type": "array", "items": {"type": "string"}},
            "atomicMap": {"type": "object", "x-kubernetes-map-type": "atomic",
              "additionalProperties": {"type": "string"}}}}
          """), name -> MissingNode.getInstance(), null);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode json(String text) throws Exception {
    return MAPPER.readTree(text.replace('\'', '"'));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{'setStr':['a','b','c']}             | {'setStr':['a','b']}                  | {'setStr':['a','b','c']}",
      "{'setStr':['a','b']}                 | {'setStr':['a','b','c']}              | {'setStr':['a','b','c']}",
      "{'setStr':['a','b','c']}             | {'setStr':[]}                         | {'setStr':['a','b','c']}",
      "{'setStr':['a','b']}                 | {'setStr':['b','a']}                  | {'setStr':['b','a']}",
      "{'setStr':['a','b','c']}             | {'setStr':['c','d','e','f']}          | {'setStr':['a','b','c','d','e','f']}",
      "{'setStr':['a','b','c','g','f']}     | {'setStr':['c','d','e','f']}          | {'setStr':['a','b','c','g','d','e','f']}",
      "{'setStr':['c','d','e','f']}         | {'setStr':['a','c','e']}              | {'setStr':['a','c','d','e','f']}",
      "{'setStr':['c','a','g','f']}         | {'setStr':['c','f','a','g']}          | {'setStr':['c','f','a','g']}",
      "{'setStr':['a','b','c','d']}         | {'setStr':['d','e','f','a']}          | {'setStr':['b','c','d','e','f','a']}",
      "{'setStr':['c','d','e','f','g','h','i','j']} | {'setStr':['2','h','3','e','4','k','l']} | {'setStr':['c','d','f','g','2','h','i','j','3','e','4','k','l']}",
      "{'setNumeric':[1,2,3.14159]}         | {'setNumeric':[1,2,3]}                | {'setNumeric':[1,2,3.14159,3]}",
      "{'list':[{'key':'a','id':1,'value':{'a':'a'}}]} | {'list':[{'key':'a','id':2,'value':{'a':'a'}}]} | {'list':[{'key':'a','id':1,'value':{'a':'a'}},{'key':'a','id':2,'value':{'a':'a'}}]}",
      "{'list':[{'key':'a','id':1},{'key':'b','id':1}]} | {'list':[{'key':'a','id':1},{'key':'a','id':2}]} | {'list':[{'key':'a','id':1},{'key':'b','id':1},{'key':'a','id':2}]}",
      "{'list':[{'key':'b','id':2}]}        | {'list':[{'key':'a','id':1},{'key':'b','id':2},{'key':'c','id':3}]} | {'list':[{'key':'a','id':1},{'key':'b','id':2},{'key':'c','id':3}]}",
      "{'list':[{'key':'a','id':1},{'key':'b','id':2},{'key':'c','id':3}]} | {'list':[{'key':'c','id':3},{'key':'a','id':1}]} | {'list':[{'key':'b','id':2},{'key':'c','id':3},{'key':'a','id':1}]}",
      "{'list':[{'key':'a','id':1,'value':{'x':'1'}}]} | {'list':[{'key':'a','id':1,'value':{'y':'2'}}]} | {'list':[{'key':'a','id':1,'value':{'x':'1','y':'2'}}]}",
      "{'atomicList':['a','b','c']}         | {'atomicList':['a']}                  | {'atomicList':['a']}",
      "{'atomicMap':{'a':'1'}}              | {'atomicMap':{'b':'2'}}               | {'atomicMap':{'b':'2'}}"})
  void mergesAsStructuredMergeDiff(String live, String applied, String expected) throws Exception {
    assertThat(ApplyMerge.merge(json(live), json(applied), TYPE)).isEqualTo(json(expected));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{'setStr':['a','b']}                 | {'f:setStr':{'v:\\'a\\'':{},'v:\\'b\\'':{}}}",
      "{'list':[{'key':'a','id':1,'value':{'x':'1'}}]} | {'f:list':{'k:{\\'id\\':1,\\'key\\':\\'a\\'}':{'.':{},'f:id':{},'f:key':{},'f:value':{'f:x':{}}}}}",
      "{'atomicList':['a'],'atomicMap':{'a':'1'}} | {'f:atomicList':{},'f:atomicMap':{}}",
      "{'other':{'deduced':[1]}}            | {'f:other':{'.':{},'f:deduced':{}}}"})
  void ownsTheFieldsItemsAndValuesOfAConfiguration(String config, String fieldsV1) throws Exception {
    Set<List<String>> paths = FieldPaths.of(json(config), TYPE);
    assertThat(FieldPaths.toFieldsV1(paths)).isEqualTo(json(fieldsV1));
    assertThat(FieldPaths.fromFieldsV1(json(fieldsV1))).isEqualTo(paths);
  }
}
