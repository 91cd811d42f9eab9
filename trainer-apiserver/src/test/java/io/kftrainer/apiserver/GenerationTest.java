package io.kftrainer.apiserver;

import static io.kftrainer.apiserver.TestCrds.trainJob;
import static io.kftrainer.apiserver.TestCrds.trainJobs;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code metadata.generation} where kube-apiserver's registry strategies keep one (custom resources, Pods, Jobs and
 * the other workloads: 1 on create, bumped when anything but metadata and status changes) and nowhere else
 * (ConfigMaps, Secrets: a client comparing objects with a cluster's sees none); and a Secret's {@code type}
 * defaulted to {@code Opaque}, as its decoding defaults it.
 */
class GenerationTest {

  @RegisterExtension
  static final EmbeddedApiServerExtension API = new EmbeddedApiServerExtension();

  @BeforeAll
  static void crds() {
    API.server().installCrds(TestCrds.trainJobCrd());
  }

  @Test
  void configMapsAndSecretsHaveNoGeneration() {
    ConfigMap created = API.client().configMaps().inNamespace("gen").resource(new ConfigMapBuilder()
        .withNewMetadata().withName("settings").endMetadata().addToData("a", "1").build()).create();
    ConfigMap updated = API.client().configMaps().inNamespace("gen").withName("settings")
        .edit(c -> new ConfigMapBuilder(c).addToData("b", "2").build());
    Secret secret = API.client().secrets().inNamespace("gen").resource(new SecretBuilder().withNewMetadata()
        .withName("token").endMetadata().addToStringData("t", "x").build()).create();

    assertThat(created.getMetadata().getGeneration()).isNull();
    assertThat(updated.getMetadata().getGeneration()).isNull();
    assertThat(secret.getMetadata().getGeneration()).isNull();
  }

  @Test
  void podsJobsAndCustomResourcesStartAtOneAndCountSpecChanges() {
    Pod pod = API.client().pods().inNamespace("gen").resource(new PodBuilder().withNewMetadata().withName("p")
        .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("busybox:1").endContainer()
        .endSpec().build()).create();
    Pod relabelled = API.client().pods().inNamespace("gen").withName("p")
        .edit(p -> new PodBuilder(p).editMetadata().addToLabels("a", "b").endMetadata().build());
    Pod changed = API.client().pods().inNamespace("gen").withName("p").edit(p -> new PodBuilder(p).editSpec()
        .editFirstContainer().withImage("busybox:2").endContainer().endSpec().build());
    Job job = API.client().batch().v1().jobs().inNamespace("gen").resource(new JobBuilder().withNewMetadata()
        .withName("j").endMetadata().withNewSpec().withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("c").withImage("busybox:1").endContainer().endSpec().endTemplate().endSpec()
        .build()).create();
    GenericKubernetesResource trainJob = trainJobs(API.client()).inNamespace("gen")
        .resource(trainJob("gen", "t", 1)).create();

    assertThat(pod.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(relabelled.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(changed.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(job.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(trainJob.getMetadata().getGeneration()).isEqualTo(1L);
  }

  @Test
  void aSecretWithoutTypeIsOpaque() {
    Secret untyped = API.client().secrets().inNamespace("gen").resource(new SecretBuilder().withNewMetadata()
        .withName("untyped").endMetadata().addToData("a", "eA==").build()).create();
    Secret typed = API.client().secrets().inNamespace("gen").resource(new SecretBuilder().withNewMetadata()
        .withName("typed").endMetadata().withType("kubernetes.io/tls").addToData("tls.crt", "eA==")
        .addToData("tls.key", "eA==").build()).create();

    assertThat(untyped.getType()).isEqualTo("Opaque");
    assertThat(typed.getType()).isEqualTo("kubernetes.io/tls");
  }
}
