package io.kftrainer.uitests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.local.LocalMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/** The TrainJobs list and a TrainJob's page in Chromium, while trainings report to local's status server. */
@ExtendWith(LocalUi.class)
class TrainJobPagesTest {

  private static final Duration TRAINING = Duration.ofSeconds(120);

  @Test
  void theListShowsARunningTrainJobsProgressMoving() throws Exception {
    LocalMode local = LocalUi.local();
    Trainings.create(local.client(), "default", "progress", 60, 0.5);
    try (Browser browser = Browser.open()) {
      browser.signIn(local.uiLoginLink().orElseThrow());
      browser.driver.get(local.ui().orElseThrow().url() + "#/trainjobs");
      List<Integer> seen = new ArrayList<>();
      browser.await(TRAINING, driver -> {
        // read in the page, in one step: the row is redrawn as the watch delivers changes
        Object now = browser.script("const bar = document.querySelector(\"tr[data-key='default/progress'] .bar\");"
            + " return bar ? bar.getAttribute('aria-valuenow') : null;");
        if (now != null) {
          int value = Integer.parseInt(now.toString());
          if (seen.isEmpty() || seen.get(seen.size() - 1) != value) {
            seen.add(value);
          }
        }
        return seen.size() >= 3 && seen.get(seen.size() - 1) < 100;
      });
      assertThat(seen).isSorted().doesNotHaveDuplicates();
      assertThat(browser.driver.findElement(By.cssSelector("tr[data-key='default/progress'] .state")).getText())
          .isEqualTo("Running");
      assertThat(browser.driver.findElement(By.id("list-status")).getText()).endsWith("· live");
      browser.screenshot("trainjobs");
    }
  }

  @Test
  void itsPageDrawsTheLossCurveWithEveryReportedPoint() throws Exception {
    LocalMode local = LocalUi.local();
    KubernetesClient client = local.client();
    // 4 reports a second: within the status server's rate (5 a second per TrainJob), so that none is refused
    Trainings.create(client, "default", "curve", 40, 0.25);
    try (Browser browser = Browser.open()) {
      browser.signIn(local.uiLoginLink().orElseThrow());
      browser.driver.get(local.ui().orElseThrow().url() + "#/trainjobs/default/curve");
      await().atMost(TRAINING).until(() -> {
        TrainJob trainJob = client.resources(TrainJob.class).inNamespace("default").withName("curve").get();
        return trainJob.getStatus() != null && trainJob.getStatus().getConditions() != null
            && trainJob.getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("Complete") && c.getStatus().equals("True"));
      });
      By loss = By.cssSelector(".chart[data-metric='loss']");
      browser.await(Duration.ofSeconds(30), driver -> !driver.findElements(loss).isEmpty()
          && "40".equals(driver.findElement(loss).getAttribute("data-points")));
      assertThat(browser.driver.findElement(loss).getText()).contains("loss");
      assertThat(browser.driver.findElements(By.cssSelector(".chart[data-metric='accuracy']"))).hasSize(1);
      // the line is drawn: pixels of the series' colour on the chart's canvas
      Number drawn = (Number) browser.script("""
          const canvas = arguments[0].querySelector('canvas');
          const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          let count = 0;
          for (let i = 0; i < pixels.length; i += 4) {
            if (pixels[i] < 80 && pixels[i + 1] > 70 && pixels[i + 1] < 130 && pixels[i + 2] > 200) count++;
          }
          return count;""", browser.driver.findElement(loss));
      assertThat(drawn.intValue()).isGreaterThan(200);
      assertThat(browser.driver.findElement(By.id("state")).getText()).isEqualTo("Complete");
      assertThat(browser.driver.findElement(By.id("children")).getText()).contains("JobSet").contains("Pod")
          .contains("Succeeded").contains("local");
      browser.await(Duration.ofSeconds(30), driver -> driver.findElement(By.id("log")).getText()
          .contains("step 39 loss"));
      browser.screenshot("trainjob");
    }
  }
}
