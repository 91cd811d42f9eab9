package io.kftrainer.e2e.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kftrainer.e2e.support.Command;
import io.kftrainer.e2e.support.Manifests;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example renders: {@code render -f examples/<file>} exits 0 with nothing on stderr and prints, for each
 * TrainJob of the file, at least its JobSet, every object labelled with its TrainJob. The examples README promises
 * this; a change that breaks an example fails here.
 */
class RenderExamplesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static List<String> examples() {
    return ExampleRenders.files();
  }

  @ParameterizedTest(name = "{0} renders without errors")
  @MethodSource("examples")
  void rendersWithoutErrors(String file) throws Exception {
    Command.Result render = ExampleRenders.of(file);

    assertThat(render.exitCode()).as(render.describe()).isZero();
    assertThat(render.stderr()).as(render.describe()).isEmpty();
    JsonNode list = JSON.readTree(render.stdout());
    assertThat(list.path("kind").asText()).isEqualTo("List");
    List<String> trainJobs = Manifests.read(ExampleRenders.path(file)).stream()
        .filter(o -> "TrainJob".equals(o.getKind())).map(o -> o.getMetadata().getName()).toList();
    assertThat(trainJobs).isNotEmpty();
    List<String> jobSets = new ArrayList<>();
    for (JsonNode item : list.path("items")) {
      assertThat(item.path("metadata").path("labels").path("trainer.kubeflow.org/trainjob-name").asText())
          .as("TrainJob label of %s %s", item.path("kind").asText(), item.path("metadata").path("name").asText())
          .isIn(trainJobs);
      if ("JobSet".equals(item.path("kind").asText())) {
        jobSets.add(item.path("metadata").path("name").asText());
      }
    }
    assertThat(jobSets).containsExactlyInAnyOrderElementsOf(trainJobs);
  }
}
