package io.kftrainer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiPathTest {

  @Test
  void aPathIsTheReadKubeApiserversAuthorizationSees() {
    assertThat(ApiPath.of("/apis/trainer.kubeflow.org/v1alpha1/namespaces/team/trainjobs", "limit=500"))
        .hasValue(new ApiPath("list", "trainer.kubeflow.org", "trainjobs", "", "team", ""));
    assertThat(ApiPath.of("/apis/trainer.kubeflow.org/v1alpha1/trainjobs", "watch=true&resourceVersion=5"))
        .hasValue(new ApiPath("watch", "trainer.kubeflow.org", "trainjobs", "", "", ""));
    assertThat(ApiPath.of("/api/v1/namespaces/team/pods/p-0/log", "follow=true"))
        .hasValue(new ApiPath("get", "", "pods", "log", "team", "p-0"));
    assertThat(ApiPath.of("/api/v1/namespaces", null)).hasValue(new ApiPath("list", "", "namespaces", "", "", ""));
    assertThat(ApiPath.of("/apis/trainer.kubeflow.org/v1alpha1/clustertrainingruntimes/torch-distributed", null))
        .hasValue(new ApiPath("get", "trainer.kubeflow.org", "clustertrainingruntimes", "", "", "torch-distributed"));
  }

  @Test
  void everyWayKubeApiserverTakesForAWatchIsAWatch() {
    for (String value : new String[] {"1", "t", "T", "TRUE", "true", "True"}) {
      assertThat(ApiPath.of("/api/v1/namespaces/team/pods", "labelSelector=a&watch=" + value))
          .get().extracting(ApiPath::verb).as(value).isEqualTo("watch");
    }
    assertThat(ApiPath.of("/api/v1/namespaces/team/pods", "watch=false")).get().extracting(ApiPath::verb)
        .isEqualTo("list");
  }

  @Test
  void aRefusalReadsAsKubeApiserversMessage() {
    assertThat(new ApiPath("list", "trainer.kubeflow.org", "trainjobs", "", "", "").forbidden("alice"))
        .isEqualTo("trainjobs.trainer.kubeflow.org is forbidden: User \"alice\" cannot list resource \"trainjobs\" "
            + "in API group \"trainer.kubeflow.org\" at the cluster scope");
  }
}
