package io.kftrainer.apiserver;

import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.kftrainer.apiserver.TestCrds.GROUP;
import static io.kftrainer.apiserver.TestCrds.trainJob;
import static io.kftrainer.apiserver.TestCrds.trainJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdmissionHookTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = EmbeddedApiServerExtension.of(EmbeddedApiServer.builder(),
      server -> server.installCrds(TestCrds.trainJobCrd()));

  private final List<AdmissionHook> added = new CopyOnWriteArrayList<>();
  private final List<AdmissionRequest> seen = new CopyOnWriteArrayList<>();

  private void add(AdmissionHook hook) {
    API.server().addAdmissionHook(hook);
    added.add(hook);
  }

  @AfterEach
  void removeHooks() {
    added.forEach(API.server()::removeAdmissionHook);
  }

  /** Rejects TrainJobs with more than 8 nodes, like a validating webhook. */
  private void addNodeLimit() {
    add(AdmissionHook.validating(GROUP, "TrainJob", request -> {
      seen.add(request);
      Object nodes = request.object().get("spec", "trainer", "numNodes");
      if (nodes instanceof Number && ((Number) nodes).intValue() > 8) {
        return AdmissionResponse.deny(422, "TrainJob.trainer.kubeflow.org \"" + request.name() + "\" is invalid",
            new StatusCauseBuilder().withField("spec.trainer.numNodes").withReason("FieldValueInvalid")
                .withMessage("must be at most 8").build());
      }
      return AdmissionResponse.allow();
    }));
  }

  @Test
  void aValidatingHookRejectsCreateApplyAndPatchWithItsStatus() {
    addNodeLimit();
    assertThatThrownBy(() -> trainJobs(API.client()).inNamespace("adm").resource(trainJob("adm", "big", 16)).create())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(422);
          assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
          assertThat(e.getStatus().getDetails().getCauses()).singleElement()
              .satisfies(c -> assertThat(c.getField()).isEqualTo("spec.trainer.numNodes"));
        });
    assertThat(trainJobs(API.client()).inNamespace("adm").withName("big").get()).isNull();
    assertThat(seen).singleElement().satisfies(r -> {
      assertThat(r.operation()).isEqualTo(AdmissionRequest.Operation.CREATE);
      assertThat(r.resource()).isEqualTo("trainjobs");
      assertThat(r.namespace()).isEqualTo("adm");
      assertThat(r.oldObject()).isNull();
    });

    assertThatThrownBy(() -> trainJobs(API.client()).inNamespace("adm").resource(trainJob("adm", "big", 16))
        .fieldManager("t").serverSideApply())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));

    trainJobs(API.client()).inNamespace("adm").resource(trainJob("adm", "ok", 2)).create();
    assertThatThrownBy(() -> trainJobs(API.client()).inNamespace("adm").withName("ok")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"trainer\":{\"numNodes\":9}}}"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
    assertThat(seen.get(seen.size() - 1).operation()).isEqualTo(AdmissionRequest.Operation.UPDATE);
    assertThat(seen.get(seen.size() - 1).oldObject().<Object>get("spec", "trainer", "numNodes")).isEqualTo(2);
    assertThat(trainJobs(API.client()).inNamespace("adm").withName("ok").get().<Object>get("spec", "trainer",
        "numNodes")).isEqualTo(2);

    // forKind hooks see neither other kinds nor the status subresource
    int before = seen.size();
    API.client().configMaps().inNamespace("adm").resource(new ConfigMapBuilder().withNewMetadata().withName("c")
        .endMetadata().build()).create();
    GenericKubernetesResource status = trainJob("adm", "ok", 2);
    status.setAdditionalProperty("status", Map.of("conditions", List.of()));
    TestCrds.applyStatus(API.client(), status);
    assertThat(seen).hasSize(before);
  }

  @Test
  void mutatingHooksPatchOrReplaceTheObjectBeforeValidation() {
    add(AdmissionHook.mutating(GROUP, "TrainJob", request -> AdmissionResponse.patch(
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/admitted\",\"value\":\"true\"}]")));
    add(AdmissionHook.mutating(GROUP, "TrainJob", request -> {
      GenericKubernetesResource object = request.object();
      object.getMetadata().getAnnotations().put("seen-label", object.getMetadata().getLabels().get("admitted"));
      return AdmissionResponse.mutate(object).withWarnings("defaulted");
    }));
    addNodeLimit();

    GenericKubernetesResource job = trainJob("adm", "mutated", 1);
    job.getMetadata().setAnnotations(new java.util.HashMap<>(Map.of("a", "b")));
    GenericKubernetesResource created = trainJobs(API.client()).inNamespace("adm").resource(job).fieldManager("t")
        .serverSideApply();
    assertThat(created.getMetadata().getLabels()).containsEntry("admitted", "true").containsEntry("app", "mutated");
    assertThat(created.getMetadata().getAnnotations()).containsEntry("seen-label", "true");
    assertThat(seen).singleElement().satisfies(r -> assertThat(r.object().getMetadata().getLabels())
        .containsEntry("admitted", "true"));

    // a second apply is mutated too; the same mutation of an unchanged object is a no-op
    GenericKubernetesResource applied = trainJobs(API.client()).inNamespace("adm").resource(job).fieldManager("t")
        .serverSideApply();
    assertThat(applied.getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
  }

  @Test
  void aFailingHookFailsTheRequestAndValidatingHooksCannotMutate() {
    add(AdmissionHook.validating(GROUP, "TrainJob", request -> {
      throw new IllegalStateException("webhook unreachable");
    }));
    assertThatThrownBy(() -> trainJobs(API.client()).inNamespace("adm").resource(trainJob("adm", "f", 1)).create())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(500);
          assertThat(e.getMessage()).contains("webhook unreachable");
        });
    removeHooks();
    added.clear();
    add(AdmissionHook.validating(GROUP, "TrainJob", request -> AdmissionResponse.mutate(request.object())));
    assertThatThrownBy(() -> trainJobs(API.client()).inNamespace("adm").resource(trainJob("adm", "g", 1)).create())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(500));
  }

  @Test
  void putIsAdmittedToo() {
    addNodeLimit();
    GenericKubernetesResource created = trainJobs(API.client()).inNamespace("adm").resource(trainJob("adm", "put", 1))
        .create();
    created.setAdditionalProperty("spec", Map.of("trainer", Map.of("numNodes", 99)));
    assertThatThrownBy(() -> trainJobs(API.client()).inNamespace("adm").resource(created).update())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
  }
}
