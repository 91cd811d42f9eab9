package com.example.trainer.team;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code team} label of a TrainJob: the team it runs for. Both plugins of this example read it, so its key and
 * its meaning live in one place. An empty value counts as no team, since it can name no dedicated nodes.
 */
final class TeamLabel {

  static final String KEY = "team";

  private TeamLabel() {
  }

  /** The object's team, if it has a non-empty {@code team} label. */
  static Optional<String> of(HasMetadata object) {
    Map<String, String> labels = object.getMetadata() == null ? null : object.getMetadata().getLabels();
    return Optional.ofNullable(labels == null ? null : labels.get(KEY)).filter(team -> !team.isEmpty());
  }
}
