package io.kftrainer.operator.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.operator.controller.TestCluster;
import io.kftrainer.testkit.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A runtime the informer cache has not seen yet (created a moment before its TrainJob) is read from the API server
 * at admission; one the cache has costs no API call.
 */
class AdmissionRuntimeResolverTest {

  private static final String NS = "admission-runtimes";
  private static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start();
    cluster.createRuntimes(NS);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void aRuntimeMissingFromTheCacheIsReadFromTheApiServer() {
    List<TrainJob> asked = new ArrayList<>();
    AdmissionRuntimeResolver resolver = new AdmissionRuntimeResolver(trainJob -> {
      asked.add(trainJob);
      return Optional.empty();
    }, cluster.client());

    TrainJob trainJob = trainJob("torch");
    var runtime = resolver.resolve(trainJob);

    assertThat(asked).containsExactly(trainJob);
    assertThat(runtime).hasValueSatisfying(r -> {
      assertThat(r.name()).isEqualTo(trainJob.getSpec().getRuntimeRef().getName());
      assertThat(r.kind()).isEqualTo("TrainingRuntime");
    });
  }

  @Test
  void aRuntimeThatExistsNowhereIsNotFound() {
    AdmissionRuntimeResolver resolver = new AdmissionRuntimeResolver(trainJob -> Optional.empty(), cluster.client());
    TrainJob trainJob = trainJob("nowhere");
    trainJob.getSpec().getRuntimeRef().setName("no-such-runtime");

    assertThat(resolver.resolve(trainJob)).isEmpty();
  }

  @Test
  void aNameNoRuntimeCanHaveIsNotFoundWithoutAnError() {
    AdmissionRuntimeResolver resolver = new AdmissionRuntimeResolver(trainJob -> Optional.empty(), cluster.client());
    TrainJob trainJob = trainJob("control");
    trainJob.getSpec().getRuntimeRef().setName("torch\u0007\n");

    assertThat(resolver.resolve(trainJob)).isEmpty();
  }

  @Test
  void aCachedRuntimeIsNotReadAgain() {
    var cachedRuntime = new AdmissionRuntimeResolver(trainJob -> Optional.empty(), cluster.client())
        .resolve(trainJob("torch")).orElseThrow();
    cluster.server().resetRequests();

    var runtime = new AdmissionRuntimeResolver(trainJob -> Optional.of(cachedRuntime), cluster.client())
        .resolve(trainJob("torch"));

    assertThat(runtime).containsSame(cachedRuntime);
    assertThat(cluster.server().requests()).isEmpty();
  }

  private static TrainJob trainJob(String name) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("controller/trainjob.yaml"));
    trainJob.getMetadata().setNamespace(NS);
    trainJob.getMetadata().setName(name);
    return trainJob;
  }
}
