package io.kftrainer.optimization;

import java.util.UUID;

/**
 * The seeds of random search: one per trial, derived from the search's seed and the trial's index, so that trial i
 * can be drawn without drawing trials 0 to i-1.
 *
 * <p>Seeds of neighbouring trials must not be neighbours: {@code java.util.Random}'s first numbers are nearly
 * linear in close seeds. Each seed is therefore mixed with SplitMix64's finalizer (Steele, Lea and Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014; the mixing step of {@code java.util.SplittableRandom}),
 * written out here because the JDK does not expose it and {@code SplittableRandom} only promises the same sequence
 * within one program run.
 */
public final class TrialSeeds {

  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

  private TrialSeeds() {
  }

  /** The seed of trial {@code trialIndex} of a search seeded with {@code seed}. */
  public static long of(long seed, int trialIndex) {
    return mix(seed + GOLDEN_GAMMA * (trialIndex + 1L));
  }

  /** A search seed for an OptimizationJob without {@code seed}: its uid, mixed; 0 without a uid. */
  public static long fromUid(String uid) {
    if (uid == null || uid.isEmpty()) {
      return 0L;
    }
    try {
      UUID parsed = UUID.fromString(uid);
      return mix(parsed.getMostSignificantBits() ^ mix(parsed.getLeastSignificantBits()));
    } catch (IllegalArgumentException e) {
      return mix(uid.hashCode());
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
