package io.kftrainer.operator.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Upstream's feature gates ({@code pkg/features/features.go}) with their names, stages and defaults, and the
 * settings of one process: the Configuration file's {@code featureGates} map first, then {@code --feature-gates}
 * on top, as upstream's manager applies them. As Kubernetes' {@code featuregate} package, {@code AllAlpha} and
 * {@code AllBeta} set every gate of that stage that is not named explicitly; an unknown gate is an error naming it.
 * Immutable: {@link #with} returns a new instance.
 */
public final class FeatureGates {

  /**
   * Lets training pods report progress to the operator's status server (KEP-2779): the {@code TrainJobStatus}
   * plugin injects the server's URL, CA and token into the trainer containers. Alpha, off by default.
   */
  public static final String TRAIN_JOB_STATUS = "TrainJobStatus";

  static final String ALL_ALPHA = "AllAlpha";
  static final String ALL_BETA = "AllBeta";

  /** A gate's maturity, which decides its default and what {@code AllAlpha} / {@code AllBeta} switch. */
  public enum Stage {
    ALPHA, BETA, GA
  }

  /** A known gate. */
  public record Spec(boolean enabledByDefault, Stage stage) {
  }

  /** Every gate upstream's manager knows, in upstream's order. */
  public static final Map<String, Spec> KNOWN = Collections.unmodifiableMap(new LinkedHashMap<>(Map.of(
      TRAIN_JOB_STATUS, new Spec(false, Stage.ALPHA))));

  private final Map<String, Boolean> explicit;

  private FeatureGates(Map<String, Boolean> explicit) {
    this.explicit = Collections.unmodifiableMap(new TreeMap<>(explicit));
  }

  /** Every gate at its default. */
  public static FeatureGates defaults() {
    return new FeatureGates(Map.of());
  }

  /**
   * These gates with {@code settings} on top (later settings win).
   *
   * @throws IllegalArgumentException naming every unknown gate, with the known ones
   */
  public FeatureGates with(Map<String, Boolean> settings) {
    List<String> unknown = unknown(settings.keySet());
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown feature gate" + (unknown.size() > 1 ? "s " : " ")
          + String.join(", ", unknown) + " (known: " + String.join(", ", KNOWN.keySet()) + ")");
    }
    Map<String, Boolean> merged = new LinkedHashMap<>(explicit);
    merged.putAll(settings);
    return new FeatureGates(merged);
  }

  /** The names among {@code names} that are no gate (nor {@code AllAlpha} / {@code AllBeta}), sorted. */
  public static List<String> unknown(Iterable<String> names) {
    List<String> unknown = new ArrayList<>();
    for (String name : names) {
      if (!KNOWN.containsKey(name) && !ALL_ALPHA.equals(name) && !ALL_BETA.equals(name)) {
        unknown.add(name);
      }
    }
    Collections.sort(unknown);
    return unknown;
  }

  /**
   * The value of {@code --feature-gates}: {@code Name=true,Other=false} (spaces around items allowed, as
   * Kubernetes' flag).
   *
   * @throws IllegalArgumentException naming the item that is not {@code name=boolean}
   */
  public static Map<String, Boolean> parse(String flag) {
    Map<String, Boolean> settings = new LinkedHashMap<>();
    for (String item : flag.split(",")) {
      String trimmed = item.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      int equals = trimmed.indexOf('=');
      String value = equals < 0 ? "" : trimmed.substring(equals + 1).strip().toLowerCase(Locale.ROOT);
      if (equals <= 0 || !(value.equals("true") || value.equals("false"))) {
        throw new IllegalArgumentException("invalid feature gate \"" + trimmed + "\": expected Name=true or "
            + "Name=false");
      }
      settings.put(trimmed.substring(0, equals).strip(), Boolean.parseBoolean(value));
    }
    return settings;
  }

  /**
   * Whether {@code gate} is on: its explicit setting, else {@code AllAlpha} / {@code AllBeta} for its stage, else
   * its default.
   *
   * @throws IllegalArgumentException if the gate is unknown (a programming error: gates are constants here)
   */
  public boolean enabled(String gate) {
    Spec spec = KNOWN.get(gate);
    if (spec == null) {
      throw new IllegalArgumentException("unknown feature gate " + gate);
    }
    Boolean value = explicit.get(gate);
    if (value != null) {
      return value;
    }
    Boolean all = switch (spec.stage()) {
      case ALPHA -> explicit.get(ALL_ALPHA);
      case BETA -> explicit.get(ALL_BETA);
      case GA -> null;
    };
    return all != null ? all : spec.enabledByDefault();
  }

  /** The gates switched on although they are not GA, for the warning Kubernetes components log at start-up. */
  public List<String> enabledPreRelease() {
    return KNOWN.entrySet().stream()
        .filter(gate -> gate.getValue().stage() != Stage.GA && enabled(gate.getKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Every gate with its effective value, e.g. {@code TrainJobStatus=false}. */
  @Override
  public String toString() {
    return KNOWN.keySet().stream().map(gate -> gate + "=" + enabled(gate)).collect(Collectors.joining(","));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FeatureGates gates && explicit.equals(gates.explicit);
  }

  @Override
  public int hashCode() {
    return Objects.hash(explicit);
  }
}
