package io.kftrainer.uitests;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.local.LocalMode;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/**
 * A user of one namespace (a ServiceAccount bound to kubeflow-trainer-view in "team") signs in with a token of
 * their own: another namespace's TrainJob, and the list of every namespace, are clear refusals; their own namespace
 * is theirs.
 */
@ExtendWith(LocalUi.class)
class RefusalTest {

  @Test
  void aUserWithoutRightsGetsAClearRefusal() throws Exception {
    LocalMode local = LocalUi.local();
    KubernetesClient client = local.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build())
        .serverSideApply();
    client.serviceAccounts().inNamespace("team").resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("viewer").endMetadata().build()).serverSideApply();
    client.rbac().roleBindings().inNamespace("team").resource(new RoleBindingBuilder().withNewMetadata()
        .withName("viewer").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
        .withKind("ClusterRole").withName("kubeflow-trainer-view").endRoleRef().addNewSubject()
        .withKind("ServiceAccount").withName("viewer").withNamespace("team").endSubject().build()).serverSideApply();
    Trainings.create(client, "default", "secret-project", 1, 0);
    String token = client.serviceAccounts().inNamespace("team").withName("viewer").tokenRequest(
        new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
    String ui = local.ui().orElseThrow().url();

    try (Browser browser = Browser.open()) {
      browser.driver.get(ui + "#/trainjobs");
      // not signed in: the sign-in page, which takes a token
      browser.await(Duration.ofSeconds(30), driver -> !driver.findElements(By.id("token")).isEmpty());
      browser.driver.findElement(By.id("token")).sendKeys(token);
      browser.driver.findElement(By.cssSelector("form[action='/login'] button")).click();
      browser.await(Duration.ofSeconds(30), driver -> !driver.findElements(By.id("username")).isEmpty());
      assertThat(browser.driver.findElement(By.id("username")).getText())
          .isEqualTo("system:serviceaccount:team:viewer");

      browser.await(Duration.ofSeconds(30), driver -> !driver.findElements(By.id("refusal")).isEmpty());
      assertThat(browser.driver.findElement(By.id("refusal")).getText()).startsWith("Not allowed.")
          .contains("list TrainJobs in all namespaces; choose a namespace of yours")
          .contains("cannot list resource \"trainjobs\"");
      assertThat(browser.driver.findElements(By.cssSelector("#trainjobs tbody tr"))).isEmpty();

      browser.driver.get(ui + "#/trainjobs/default/secret-project");
      browser.await(Duration.ofSeconds(30), driver -> !driver.findElements(By.id("refusal")).isEmpty());
      assertThat(browser.driver.findElement(By.id("refusal")).getText()).startsWith("Not allowed.")
          .contains("read TrainJob default/secret-project");
      assertThat(browser.driver.findElement(By.tagName("body")).getText()).doesNotContain("torch-distributed");
      browser.screenshot("refusal");

      browser.driver.get(ui + "#/trainjobs?namespace=team");
      browser.await(Duration.ofSeconds(30), driver -> driver.findElement(By.id("list-status")).getText()
          .equals("0 TrainJobs in team · live"));
    }
  }
}
