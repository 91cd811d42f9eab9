package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.webhook.cert.TestingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events are aggregated and rate limited as client-go's recorder does: a repeat within the window patches the
 * count and last time stamp of the Event already recorded, and a TrainJob's Events beyond the spam filter's burst are
 * dropped, so that Events do not take the API budget of the writes that matter.
 */
class TrainJobEventsTest {

  private static final String NS = "events";
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private EmbeddedApiServer server;
  private KubernetesClient client;
  private TestingClock clock;
  private TrainJobEvents events;

  @BeforeEach
  void start() {
    server = EmbeddedApiServer.start();
    client = server.client();
    clock = new TestingClock(START);
    events = new TrainJobEvents(client, "test", clock);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aRepeatedEventPatchesTheCountAndLastTimestampOfTheRecordedOne() {
    TrainJob trainJob = trainJob("a", "uid-a");
    events.resourcesFailed(trainJob, "boom");
    clock.advance(Duration.ofSeconds(30));
    server.resetRequests();
    events.resourcesFailed(trainJob, "boom");
    events.resourcesFailed(trainJob, "boom");
    List<String> requests = server.requests().stream().map(request -> request.method()).toList();

    List<Event> recorded = events();
    assertThat(recorded).hasSize(1);
    Event event = recorded.get(0);
    assertThat(event.getCount()).isEqualTo(3);
    assertThat(event.getFirstTimestamp()).isEqualTo(START.toString());
    assertThat(event.getLastTimestamp()).isEqualTo(START.plusSeconds(30).toString());
    // what the chart's RBAC grants on events (create, patch), as upstream's: no read before the patch
    assertThat(requests).containsExactly("PATCH", "PATCH");
  }

  @Test
  void anotherMessageOrObjectOrARepeatAfterTheWindowIsANewEvent() {
    TrainJob a = trainJob("a", "uid-a");
    events.resourcesFailed(a, "boom");
    events.resourcesFailed(a, "bang");
    events.resourcesFailed(trainJob("b", "uid-b"), "boom");
    clock.advance(EventCorrelator.WINDOW.plusSeconds(1));
    events.resourcesFailed(a, "boom");

    assertThat(events()).extracting(Event::getCount).containsExactly(1, 1, 1, 1);
  }

  @Test
  void aDeletedEventIsCreatedAgainOnTheNextRepeat() {
    TrainJob trainJob = trainJob("a", "uid-a");
    events.resourcesFailed(trainJob, "boom");
    client.v1().events().inNamespace(NS).delete();
    events.resourcesFailed(trainJob, "boom");

    assertThat(events()).extracting(Event::getCount).containsExactly(1);
  }

  @Test
  void aTrainJobsEventsBeyondTheSpamBurstAreDroppedUntilTheBucketRefills() {
    TrainJob noisy = trainJob("noisy", "uid-noisy");
    for (int i = 0; i < EventCorrelator.SPAM_BURST + 10; i++) {
      events.resourcesFailed(noisy, "failure " + i);
    }
    events.resourcesFailed(trainJob("quiet", "uid-quiet"), "boom");
    assertThat(events()).hasSize(EventCorrelator.SPAM_BURST + 1);

    clock.advance(EventCorrelator.SPAM_REFILL);
    events.resourcesFailed(noisy, "after the pause");
    events.resourcesFailed(noisy, "one too many");
    assertThat(events()).extracting(Event::getMessage)
        .contains("TrainJob resources reconciliation failed: after the pause")
        .doesNotContain("TrainJob resources reconciliation failed: one too many");
  }

  private List<Event> events() {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .sorted(Comparator.comparing(event -> event.getMetadata().getCreationTimestamp()))
        .toList();
  }

  private static TrainJob trainJob(String name, String uid) {
    TrainJob trainJob = new TrainJob();
    trainJob.setMetadata(new ObjectMetaBuilder().withNamespace(NS).withName(name).withUid(uid).build());
    return trainJob;
  }
}
