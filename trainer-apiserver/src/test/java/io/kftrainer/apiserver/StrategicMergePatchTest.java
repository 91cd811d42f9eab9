package io.kftrainer.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kftrainer.framework.merge.StrategicMerge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Strategic merge patch with the patch strategies and merge keys of each built-in type, kubectl's directives, and
 * apimachinery's order of merged lists (its {@code normalizeElementOrder}).
 */
class StrategicMergePatchTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final MergeTypes TYPES = new MergeTypes(List::of);

  private static JsonNode json(String text) throws Exception {
    return MAPPER.readTree(text.replace('\'', '"'));
  }

  /** Patches of a Pod: {@code target} and {@code patch} are its spec, or its metadata when they start with m. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      // containers by name, and env by name inside them
      "{'containers':[{'name':'a','image':'a:1'},{'name':'b'}]} | {'containers':[{'name':'a','args':['x']}]} | {'containers':[{'name':'a','image':'a:1','args':['x']},{'name':'b'}]}",
      "{'containers':[{'name':'a','env':[{'name':'X','value':'1'},{'name':'Y','value':'2'}]}]} | {'containers':[{'name':'a','env':[{'name':'Y','value':'3'}]}]} | {'containers':[{'name':'a','env':[{'name':'X','value':'1'},{'name':'Y','value':'3'}]}]}",
      "{'containers':[{'name':'a','env':[{'name':'X'},{'name':'Y'}]}]} | {'containers':[{'name':'a','env':[{'name':'X','$patch':'delete'}]}]} | {'containers':[{'name':'a','env':[{'name':'Y'}]}]}",
      // volumeMounts by mountPath, container ports by containerPort
      "{'containers':[{'name':'a','volumeMounts':[{'name':'v','mountPath':'/a'}]}]} | {'containers':[{'name':'a','volumeMounts':[{'name':'v','mountPath':'/b'}]}]} | {'containers':[{'name':'a','volumeMounts':[{'name':'v','mountPath':'/b'},{'name':'v','mountPath':'/a'}]}]}",
      "{'containers':[{'name':'a','ports':[{'containerPort':80,'name':'x'},{'containerPort':81}]}]} | {'containers':[{'name':'a','ports':[{'containerPort':80,'name':'y'}]}]} | {'containers':[{'name':'a','ports':[{'containerPort':80,'name':'y'},{'containerPort':81}]}]}",
      // volumes by name; imagePullSecrets by name; a new item goes before the items it is not placed after
      "{'volumes':[{'name':'a','emptyDir':{}}]}   | {'volumes':[{'name':'z','emptyDir':{}}]}     | {'volumes':[{'name':'z','emptyDir':{}},{'name':'a','emptyDir':{}}]}",
      "{'imagePullSecrets':[{'name':'a'}]}       | {'imagePullSecrets':[{'name':'b'}]}          | {'imagePullSecrets':[{'name':'b'},{'name':'a'}]}",
      "{'imagePullSecrets':[{'name':'a'},{'name':'c'}]} | {'imagePullSecrets':[{'name':'a'},{'name':'b'}]} | {'imagePullSecrets':[{'name':'a'},{'name':'b'},{'name':'c'}]}",
      // no merge key: tolerations, args replaced; a list named like a keyed one elsewhere is not merged here
      "{'tolerations':[{'key':'a','operator':'Exists'}]} | {'tolerations':[{'key':'b','operator':'Exists'}]} | {'tolerations':[{'key':'b','operator':'Exists'}]}",
      "{'containers':[{'name':'a','args':['1','2']}]} | {'containers':[{'name':'a','args':['3']}]}  | {'containers':[{'name':'a','args':['3']}]}",
      "{'readinessGates':[{'conditionType':'a'}]} | {'readinessGates':[{'conditionType':'b'}]}     | {'readinessGates':[{'conditionType':'b'}]}",
      // directives
      "{'containers':[{'name':'a'},{'name':'b'}]} | {'containers':[{'name':'c'},{'$patch':'replace'}]} | {'containers':[{'name':'c'}]}",
      "{'containers':[{'name':'a'},{'name':'b'}]} | {'$setElementOrder/containers':[{'name':'b'},{'name':'a'}],'containers':[{'name':'a','image':'x'}]} | {'containers':[{'name':'b'},{'name':'a','image':'x'}]}",
      "{'volumes':[{'name':'v','emptyDir':{},'x':1}]} | {'volumes':[{'name':'v','hostPath':{'path':'/p'},'$retainKeys':['hostPath','name']}]} | {'volumes':[{'name':'v','hostPath':{'path':'/p'}}]}",
      "{'securityContext':{'runAsUser':1,'runAsGroup':2}} | {'securityContext':{'$patch':'replace','runAsUser':3}} | {'securityContext':{'runAsUser':3}}",
      "{'nodeSelector':{'a':'1'}}                | {'nodeSelector':{'$patch':'delete'}}            | {}",
      // metadata: finalizers a set, ownerReferences by uid
      "m{'finalizers':['a']}                     | {'finalizers':['b','a']}                        | {'finalizers':['b','a']}",
      "m{'finalizers':['a','c']}                 | {'finalizers':['b']}                            | {'finalizers':['b','a','c']}",
      "m{'finalizers':['a','b']}                 | {'$deleteFromPrimitiveList/finalizers':['a']}   | {'finalizers':['b']}",
      "m{'ownerReferences':[{'uid':'1','name':'x'}]} | {'ownerReferences':[{'uid':'2','name':'y'}]} | {'ownerReferences':[{'uid':'2','name':'y'},{'uid':'1','name':'x'}]}",
      // $setElementOrder alone reorders; b stays before c, as it was
      "{'containers':[{'name':'a'},{'name':'b'},{'name':'c'}]} | {'$setElementOrder/containers':[{'name':'c'},{'name':'a'}]} | {'containers':[{'name':'b'},{'name':'c'},{'name':'a'}]}"})
  void patchesAPod(String target, String patch, String expected) throws Exception {
    String field = target.startsWith("m") ? "metadata" : "spec";
    JsonNode pod = MAPPER.createObjectNode().set(field, json(target.replaceFirst("^m", "")));
    JsonNode result = StrategicMerge.apply(pod, MAPPER.createObjectNode().set(field, json(patch)),
        TYPES.of("", "v1", "Pod"));
    assertThat(result.path(field)).isEqualTo(json(expected));
  }

  @Test
  void aServicesPortsMergeOnPortAndAJobsPodTemplateLikeAPods() throws Exception {
    assertThat(StrategicMerge.apply(json("{'spec':{'ports':[{'port':80},{'port':81}]}}"),
        json("{'spec':{'ports':[{'port':81,'targetPort':9}]}}"), TYPES.of("", "v1", "Service")))
        .isEqualTo(json("{'spec':{'ports':[{'port':80},{'port':81,'targetPort':9}]}}"));
    assertThat(StrategicMerge.apply(
        json("{'spec':{'template':{'spec':{'containers':[{'name':'a','image':'1'},{'name':'b'}]}}}}"),
        json("{'spec':{'template':{'spec':{'containers':[{'name':'a','image':'2'}]}}}}"),
        TYPES.of("batch", "v1", "Job")))
        .isEqualTo(json("{'spec':{'template':{'spec':{'containers':[{'name':'a','image':'2'},{'name':'b'}]}}}}"));
  }

  @Test
  void anItemWithoutItsMergeKeyIsAnError() {
    assertThatThrownBy(() -> StrategicMerge.apply(json("{'spec':{'containers':[{'name':'a'}]}}"),
        json("{'spec':{'containers':[{'image':'x'}]}}"), TYPES.of("", "v1", "Pod")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not contain declared merge key: name");
  }
}
