package io.kftrainer.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class StructuralSchemaTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A small schema in the shape of the TrainJob CRD, written in JSON with single quotes. */
  private static final StructuralSchema SCHEMA = StructuralSchema.of(json("{'type':'object','properties':{"
      + "'spec':{'type':'object','required':['runtimeRef'],"
      + " 'x-kubernetes-validations':[{'rule':'!has(self.a) || !has(self.b)','message':'a and b are exclusive'}],"
      + " 'properties':{"
      + "  'runtimeRef':{'type':'object','properties':{'name':{'type':'string','minLength':1},"
      + "    'kind':{'type':'string','default':'ClusterTrainingRuntime','enum':['ClusterTrainingRuntime','TrainingRuntime']}},"
      + "    'x-kubernetes-validations':[{'rule':'self == oldSelf','message':'field is immutable'}]},"
      + "  'numNodes':{'type':'integer','minimum':1,'maximum':100},"
      + "  'procs':{'x-kubernetes-int-or-string':true,"
      + "    'x-kubernetes-validations':[{'rule':\"self > 0 || self in [\\u0027auto\\u0027, \\u0027cpu\\u0027, \\u0027gpu\\u0027]\",'message':'bad procs'}]},"
      + "  'quantity':{'x-kubernetes-int-or-string':true},"
      + "  'uri':{'type':'string','maxLength':10,'pattern':'^[a-z]+://'},"
      + "  'tags':{'type':'array','maxItems':2,'x-kubernetes-list-type':'set','items':{'type':'string'}},"
      + "  'env':{'type':'array','x-kubernetes-list-type':'map','x-kubernetes-list-map-keys':['name'],"
      + "    'items':{'type':'object','properties':{'name':{'type':'string'},'value':{'type':'string'}}}},"
      + "  'labels':{'type':'object','additionalProperties':{'type':'string'}},"
      + "  'a':{'type':'string'},'b':{'type':'string'}}}}}"));

  private static JsonNode json(String singleQuoted) {
    try {
      return JSON.readTree(singleQuoted.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(singleQuoted, e);
    }
  }

  private static List<String> errors(String spec, String oldSpec) {
    JsonNode object = json("{'spec':" + spec + "}");
    JsonNode old = oldSpec == null ? null : json("{'spec':" + oldSpec + "}");
    return SCHEMA.validate(object, old).stream().map(SchemaFieldError::toString).toList();
  }

  /** kube-apiserver's error when a blocking schema error kept it from evaluating the CEL rules. */
  static final String RULES_NOT_CHECKED = "<nil>: Invalid value: \"null\": some validation rules were not checked "
      + "because the object was invalid; correct the existing errors to complete validation";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a valid spec has no error", "{'runtimeRef':{'name':'x'},'numNodes':2,'procs':'auto'}", null,
            List.of()),
        Arguments.of("minimum", "{'runtimeRef':{'name':'x'},'numNodes':-1}", null, List.of("spec.numNodes: Invalid "
            + "value: -1: spec.numNodes in body should be greater than or equal to 1")),
        Arguments.of("maximum", "{'runtimeRef':{'name':'x'},'numNodes':101}", null, List.of("spec.numNodes: Invalid "
            + "value: 101: spec.numNodes in body should be less than or equal to 100")),
        Arguments.of("type", "{'runtimeRef':{'name':'x'},'numNodes':'two'}", null, List.of("spec.numNodes: Invalid "
            + "value: \"string\": spec.numNodes in body must be of type integer: \"string\"", RULES_NOT_CHECKED)),
        Arguments.of("required", "{}", null, List.of("spec.runtimeRef: Required value", RULES_NOT_CHECKED)),
        Arguments.of("enum", "{'runtimeRef':{'name':'x','kind':'Job'}}", null, List.of("spec.runtimeRef.kind: "
            + "Unsupported value: \"Job\": supported values: \"ClusterTrainingRuntime\", \"TrainingRuntime\"",
            RULES_NOT_CHECKED)),
        Arguments.of("minLength", "{'runtimeRef':{'name':''}}", null, List.of("spec.runtimeRef.name: Invalid value: "
            + "\"\": spec.runtimeRef.name in body should be at least 1 chars long")),
        Arguments.of("maxLength and pattern", "{'runtimeRef':{'name':'x'},'uri':'not-a-uri-at-all'}", null, List.of(
            "spec.uri: Too long: may not be more than 10 bytes",
            "spec.uri: Invalid value: \"not-a-uri-at-all\": spec.uri in body should match '^[a-z]+://'",
            RULES_NOT_CHECKED)),
        Arguments.of("maxItems and set duplicates", "{'runtimeRef':{'name':'x'},'tags':['a','a','b']}", null, List.of(
            "spec.tags: Too many: 3: must have at most 2 items", "spec.tags[1]: Duplicate value: \"a\"",
            RULES_NOT_CHECKED)),
        Arguments.of("map list duplicate keys", "{'runtimeRef':{'name':'x'},'env':[{'name':'A'},{'name':'A'}]}", null,
            List.of("spec.env[1]: Duplicate value: {\"name\":\"A\"}")),
        Arguments.of("additionalProperties", "{'runtimeRef':{'name':'x'},'labels':{'k':1}}", null, List.of(
            "spec.labels.k: Invalid value: \"integer\": spec.labels.k in body must be of type string: \"integer\"",
            RULES_NOT_CHECKED)),
        Arguments.of("a value out of range does not keep the rules from being checked: both are reported",
            "{'runtimeRef':{'name':'x'},'numNodes':-1,'a':'1','b':'2'}", null, List.of("spec.numNodes: Invalid "
            + "value: -1: spec.numNodes in body should be greater than or equal to 1",
            "spec: Invalid value: \"object\": a and b are exclusive")),
        Arguments.of("a CEL rule on an object", "{'runtimeRef':{'name':'x'},'a':'1','b':'2'}", null, List.of(
            "spec: Invalid value: \"object\": a and b are exclusive")),
        Arguments.of("a CEL rule on int-or-string", "{'runtimeRef':{'name':'x'},'procs':0}", null, List.of(
            "spec.procs: Invalid value: \"\": bad procs")),
        Arguments.of("a rule that cannot be evaluated is an error of the rule",
            "{'runtimeRef':{'name':'x'},'procs':'many'}", null, List.of("spec.procs: Invalid value: \"\": "
            + "'no such overload': call arguments did not match a supported operator, function or macro signature "
            + "for rule: bad procs")),
        Arguments.of("int-or-string accepts a positive int", "{'runtimeRef':{'name':'x'},'procs':4}", null,
            List.of()),
        Arguments.of("int-or-string accepts an integral float (the Kubeflow SDK's cpu: 1.0), as kube-apiserver",
            "{'runtimeRef':{'name':'x'},'quantity':1.0}", null, List.of()),
        Arguments.of("int-or-string refuses a fraction", "{'runtimeRef':{'name':'x'},'quantity':1.5}", null,
            List.of("spec.quantity: Invalid value: \"number\": spec.quantity in body must be of type integer,string: "
                + "\"number\"", "<nil>: Invalid value: \"null\": some validation rules were not checked because the "
                + "object was invalid; correct the existing errors to complete validation")),
        Arguments.of("integer accepts an integral float", "{'runtimeRef':{'name':'x'},'numNodes':2.0}", null,
            List.of()),
        Arguments.of("a transition rule holds on an unchanged field", "{'runtimeRef':{'name':'x'}}",
            "{'runtimeRef':{'name':'x'}}", List.of()),
        Arguments.of("a transition rule fails on a change", "{'runtimeRef':{'name':'y'}}",
            "{'runtimeRef':{'name':'x'}}", List.of("spec.runtimeRef: Invalid value: \"object\": field is immutable")),
        Arguments.of("a transition rule is skipped on create", "{'runtimeRef':{'name':'y'}}", null, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validatesAsKubeApiserver(String name, String spec, String oldSpec, List<String> expected) {
    assertThat(errors(spec, oldSpec)).containsExactlyElementsOf(expected);
  }

  @Test
  void pruningKeepsDeclaredFieldsAndTheRootTypeMeta() {
    ObjectNode object = (ObjectNode) json("{'apiVersion':'v','kind':'K','metadata':{'name':'n'},'extra':1,"
        + "'spec':{'runtimeRef':{'name':'x','typo':true},'labels':{'free':'form'}}}");
    SCHEMA.prune(object);
    assertThat(object).isEqualTo(json("{'apiVersion':'v','kind':'K','metadata':{'name':'n'},"
        + "'spec':{'runtimeRef':{'name':'x'},'labels':{'free':'form'}}}"));
  }

  @Test
  void pruningReportsTheRemovedFieldsSortedWithTheirPaths() {
    ObjectNode object = (ObjectNode) json("{'apiVersion':'v','kind':'K','metadata':{'name':'n','typo':1},"
        + "'zeta':{'deep':true},'spec':{'runtimeRef':{'name':'x','kindd':'T'},'numNode':2,"
        + "'env':[{'name':'A','valu':'1'},{'name':'B'}],'labels':{'free':'form'}}}");
    assertThat(SCHEMA.prune(object)).containsExactly("spec.env[0].valu", "spec.numNode", "spec.runtimeRef.kindd",
        "zeta");
    assertThat(SCHEMA.prune(object)).as("nothing left to prune").isEmpty();
  }

  @Test
  void fieldsKeptByPreserveUnknownFieldsAreNotReported() {
    StructuralSchema schema = StructuralSchema.of(json("{'type':'object','properties':{'spec':{'type':'object',"
        + "'x-kubernetes-preserve-unknown-fields':true,'properties':{'known':{'type':'object',"
        + "'properties':{'a':{'type':'string'}}}}}}}"));
    ObjectNode object = (ObjectNode) json("{'spec':{'anything':{'goes':1},'known':{'a':'x','b':'y'}}}");
    assertThat(schema.prune(object)).containsExactly("spec.known.b");
    assertThat(object).isEqualTo(json("{'spec':{'anything':{'goes':1},'known':{'a':'x'}}}"));
  }

  @Test
  void metadataIsNeverPrunedEvenWhenTheCrdDeclaresItAsAnEmptyObject() {
    StructuralSchema schema = StructuralSchema.of(json("{'type':'object','properties':{'metadata':{'type':'object'},"
        + "'spec':{'type':'object'}}}"));
    ObjectNode object = (ObjectNode) json("{'metadata':{'name':'n','namespace':'ns','labels':{'a':'b'}},'spec':{}}");
    schema.prune(object);
    assertThat(object.at("/metadata/name").asText()).isEqualTo("n");
    assertThat(object.at("/metadata/labels/a").asText()).isEqualTo("b");
  }

  @Test
  void defaultsFillAbsentFieldsOnly() {
    ObjectNode object = (ObjectNode) json("{'spec':{'runtimeRef':{'name':'x'}}}");
    SCHEMA.applyDefaults(object);
    assertThat(object.at("/spec/runtimeRef/kind").asText()).isEqualTo("ClusterTrainingRuntime");
    ObjectNode explicit = (ObjectNode) json("{'spec':{'runtimeRef':{'name':'x','kind':'TrainingRuntime'}}}");
    SCHEMA.applyDefaults(explicit);
    assertThat(explicit.at("/spec/runtimeRef/kind").asText()).isEqualTo("TrainingRuntime");
  }
}
