package io.kftrainer.optimization;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The name of trial i's TrainJob: {@code <optimizationjob>-trial-<i>} (KEP-3744: derived from the trial's index
 * before its record is written, so that record and TrainJob stay paired across crashes). A TrainJob name must be an
 * RFC 1035 label of at most 63 characters, which an OptimizationJob name need not be.
 */
public final class TrialNames {

  private static final Pattern RFC_1035_LABEL = Pattern.compile("^[a-z]([-a-z0-9]*[a-z0-9])?$");
  private static final int MAX_LENGTH = 63;

  private TrialNames() {
  }

  public static String of(String optimizationJobName, int trialIndex) {
    return optimizationJobName + "-trial-" + trialIndex;
  }

  /** Why {@code name} cannot name a TrainJob, in the words of the TrainJob CRD's rules; empty if it can. */
  public static Optional<String> problem(String name) {
    if (name.length() > MAX_LENGTH) {
      return Optional.of("metadata.name: Invalid value: \"" + name + "\": must be no more than 63 characters (the "
          + "OptimizationJob's name plus \"-trial-<index>\")");
    }
    if (!RFC_1035_LABEL.matcher(name).matches()) {
      return Optional.of("metadata.name: Invalid value: \"" + name + "\": must match RFC 1035 DNS label format "
          + "(lower case letters, digits and '-', starting with a letter)");
    }
    return Optional.empty();
  }
}
