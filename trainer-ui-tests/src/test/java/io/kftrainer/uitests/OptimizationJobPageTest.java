package io.kftrainer.uitests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.local.LocalMode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/** A finished OptimizationJob's page in Chromium: its trials, the objective per trial plotted, the best marked. */
@ExtendWith(LocalUi.class)
class OptimizationJobPageTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aFinishedOptimizationJobShowsItsTrialsAndItsBestTrial() throws Exception {
    LocalMode local = LocalUi.local();
    KubernetesClient client = local.client();
    ObjectNode job = JSON.createObjectNode().put("apiVersion", "trainer.kubeflow.org/v1alpha1")
        .put("kind", "OptimizationJob");
    job.putObject("metadata").put("name", "search").put("namespace", "default");
    ObjectNode spec = job.putObject("spec");
    spec.putArray("objectives").addObject().put("metric", "loss").put("direction", "Minimize");
    spec.putObject("searchAlgorithm").putObject("random").put("seed", 7);
    spec.putArray("parameters").addObject().put("name", "lr").putObject("searchSpace").putObject("logUniform")
        .put("min", "0.005").put("max", "0.5");
    spec.put("numTrials", 4).put("parallelTrials", 2);
    spec.putObject("trainJobTemplate").set("spec",
        JSON.valueToTree(Trainings.trainJob(client, "template", 12, 0.25).getSpec()));
    client.resources(OptimizationJob.class).inNamespace("default").resource(
        client.getKubernetesSerialization().unmarshal(JSON.writeValueAsString(job), OptimizationJob.class)).create();
    await().atMost(Duration.ofMinutes(3)).until(() -> {
      OptimizationJob found = client.resources(OptimizationJob.class).inNamespace("default").withName("search").get();
      return found.getStatus() != null && found.getStatus().getConditions() != null && found.getStatus()
          .getConditions().stream().anyMatch(c -> c.getType().equals("Complete") && c.getStatus().equals("True"));
    });
    String best = client.resources(OptimizationJob.class).inNamespace("default").withName("search").get()
        .getStatus().getResult().getTrainJobName();

    try (Browser browser = Browser.open()) {
      browser.signIn(local.uiLoginLink().orElseThrow());
      browser.driver.get(local.ui().orElseThrow().url() + "#/optimizationjobs/default/search");
      browser.await(Duration.ofSeconds(30), driver -> driver.findElements(By.cssSelector("tr.trial")).size() == 4);
      List<WebElement> trials = browser.driver.findElements(By.cssSelector("tr.trial"));
      assertThat(trials).extracting(row -> row.getAttribute("data-state")).containsOnly("Succeeded");
      assertThat(browser.driver.findElements(By.cssSelector("tr.trial.best"))).singleElement()
          .satisfies(row -> {
            assertThat(row.getAttribute("data-trial")).isEqualTo(best);
            assertThat(row.getText()).contains("best");
          });
      assertThat(browser.driver.findElement(By.id("state")).getText()).isEqualTo("Complete");
      assertThat(browser.driver.findElement(By.id("best")).getText()).startsWith(best).contains("loss=");
      assertThat(browser.driver.findElement(By.id("trials-table")).getText()).contains("LR").contains("Succeeded");
      WebElement chart = browser.driver.findElement(By.id("objective-chart"));
      assertThat(chart.getAttribute("data-trials")).isEqualTo("4");
      assertThat(chart.findElements(By.tagName("canvas"))).hasSize(1);
      browser.screenshot("optimizationjob");
    }
  }
}
