package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.InputStream;

/** The test CRDs (src/test/resources/crds) and TrainJob helpers. */
final class TestCrds {

  static final String GROUP = "trainer.kubeflow.org";
  static final String API_VERSION = GROUP + "/v1alpha1";

  private TestCrds() {
  }

  static InputStream trainJobCrd() {
    return TestCrds.class.getResourceAsStream("/crds/trainjobs.yaml");
  }

  /** The project's real TrainJob CRD (manifests/crds): full schema, CEL rules. */
  static java.nio.file.Path realCrd(String plural) {
    return java.nio.file.Path.of("../manifests/crds/trainer.kubeflow.org_" + plural + ".yaml");
  }

  static InputStream clusterTrainingRuntimeCrd() {
    return TestCrds.class.getResourceAsStream("/crds/clustertrainingruntimes.yaml");
  }

  static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
      trainJobs(KubernetesClient client) {
    return client.genericKubernetesResources(API_VERSION, "TrainJob");
  }

  /** Server-side apply to the status subresource, as JOSDK does it. */
  static GenericKubernetesResource applyStatus(KubernetesClient client, GenericKubernetesResource object) {
    return trainJobs(client).inNamespace(object.getMetadata().getNamespace()).resource(object).subresource("status")
        .patch(new io.fabric8.kubernetes.client.dsl.base.PatchContext.Builder()
            .withPatchType(io.fabric8.kubernetes.client.dsl.base.PatchType.SERVER_SIDE_APPLY)
            .withFieldManager("test").withForce(true).build());
  }

  /** A TrainJob from YAML (the name and namespace are substituted). */
  static GenericKubernetesResource trainJob(String namespace, String name, int numNodes) {
    return Serialization.unmarshal(""
        + "apiVersion: " + API_VERSION + "\n"
        + "kind: TrainJob\n"
        + "metadata:\n"
        + "  name: " + name + "\n"
        + "  namespace: " + namespace + "\n"
        + "  labels: {app: " + name + "}\n"
        + "spec:\n"
        + "  runtimeRef: {name: torch-distributed}\n"
        + "  trainer:\n"
        + "    numNodes: " + numNodes + "\n"
        + "    args: [\"--epochs\", \"1\"]\n", GenericKubernetesResource.class);
  }
}
