package io.kftrainer.optimization;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kftrainer.api.v1alpha1.OptimizationConstants;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The median stopping rule (Katib's {@code medianstop}, after Golovin et al., "Google Vizier", KDD 2017): a running
 * trial whose objective value, once it has reached {@code startProgress} percent, is strictly worse than the median
 * of the values the succeeded trials had at that progress is stopped. The rule applies once at least
 * {@code minTrialsRequired} succeeded trials have such a value, and once per trial: at its first report at or past
 * {@code startProgress}.
 *
 * <p>Where Katib counts reports (its {@code start_step}, default 4) and averages each completed trial's first
 * {@code start_step} values, this rule uses the progress the trial reports ({@code status.trainerStatus}'s
 * {@code progressPercentage}) and the one value each trial had when first seen at or past {@code startProgress}:
 * the controller sees a TrainJob's status, not every report, as watches may merge updates. That value is kept in
 * the trial's record ({@code earlyStoppingObservation}), so the rule is the same after a restart. Katib's defaults:
 * {@code minTrialsRequired} 3; {@code startProgress} defaults to 50.
 *
 * <p>Configured by the annotation {@value OptimizationConstants#ANNOTATION_EARLY_STOPPING} on the OptimizationJob,
 * JSON: {@code {"medianStop": {"minTrialsRequired": 3, "startProgress": 50}}} (both settings optional).
 */
public record MedianStop(int minTrialsRequired, int startProgress) {

  public static final int DEFAULT_MIN_TRIALS_REQUIRED = 3;
  public static final int DEFAULT_START_PROGRESS = 50;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FIELD = "metadata.annotations[" + OptimizationConstants.ANNOTATION_EARLY_STOPPING + "]";

  /**
   * The rule the annotations ask for; empty without the annotation.
   *
   * @throws InvalidEarlyStoppingException naming the annotation and the setting at fault
   */
  public static Optional<MedianStop> fromAnnotations(Map<String, String> annotations) {
    String text = annotations == null ? null : annotations.get(OptimizationConstants.ANNOTATION_EARLY_STOPPING);
    if (text == null) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw invalid(text, "not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw invalid(text, "must be a JSON object such as {\"medianStop\": {}}");
    }
    onlyFields(root, Set.of("medianStop"), "", text);
    JsonNode settings = root.get("medianStop");
    if (settings == null || !settings.isObject()) {
      throw invalid(text, "medianStop: Required value: the only early-stopping rule is medianStop, e.g. "
          + "{\"medianStop\": {\"minTrialsRequired\": 3, \"startProgress\": 50}}");
    }
    onlyFields(settings, Set.of("minTrialsRequired", "startProgress"), "medianStop.", text);
    int minTrials = integer(settings, "minTrialsRequired", DEFAULT_MIN_TRIALS_REQUIRED, 1, 1000, text);
    int start = integer(settings, "startProgress", DEFAULT_START_PROGRESS, 1, 100, text);
    return Optional.of(new MedianStop(minTrials, start));
  }

  private static void onlyFields(JsonNode node, Set<String> known, String prefix, String text) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw invalid(text, prefix + name + ": unknown field, expected one of " + new java.util.TreeSet<>(known));
      }
    }
  }

  private static int integer(JsonNode settings, String name, int fallback, int min, int max, String text) {
    JsonNode value = settings.get(name);
    if (value == null) {
      return fallback;
    }
    if (!value.canConvertToInt() || !value.isIntegralNumber() || value.asInt() < min || value.asInt() > max) {
      throw invalid(text, "medianStop." + name + " must be an integer from " + min + " to " + max + ", not " + value);
    }
    return value.asInt();
  }

  private static InvalidEarlyStoppingException invalid(String text, String detail) {
    return new InvalidEarlyStoppingException(FIELD + ": Invalid value: " + JSON.valueToTree(text) + ": " + detail);
  }

  /** The median of the succeeded trials' values, once there are {@code minTrialsRequired} of them. */
  public OptionalDouble median(Collection<Double> succeeded) {
    if (succeeded.size() < minTrialsRequired) {
      return OptionalDouble.empty();
    }
    List<Double> sorted = new ArrayList<>(succeeded);
    sorted.sort(Double::compare);
    int middle = sorted.size() / 2;
    return OptionalDouble.of(sorted.size() % 2 == 1 ? sorted.get(middle)
        : (sorted.get(middle - 1) + sorted.get(middle)) / 2);
  }

  /** Whether a trial with {@code value} is stopped, given the succeeded trials' values at the same progress. */
  public boolean shouldStop(double value, Collection<Double> succeeded, ObjectiveMetric objective) {
    OptionalDouble median = median(succeeded);
    return median.isPresent() && objective.isBetter(median.getAsDouble(), value);
  }
}
