package io.kftrainer.plugins.flux;

/**
 * Flux's RFC 29 host lists and id sets, in the two shapes the broker configuration and {@code flux R encode} need:
 * a range of consecutive ids ({@code 0} or {@code 0-3}) and the hosts of a replicated job
 * ({@code <prefix>-node-0-[0-3]}, the hostnames JobSet gives the pods of job 0 of replicated job {@code node}).
 */
final class Hostlist {

  private Hostlist() {
  }

  /** {@code size} consecutive ids from {@code start}: {@code "7"} for one, {@code "10-12"} for three. */
  static String range(int size, int start) {
    return size == 1 ? Integer.toString(start) : start + "-" + (start + size - 1);
  }

  /** The hostnames of {@code size} pods of replicated job {@code node}, job 0, of JobSet {@code prefix}. */
  static String of(String prefix, int size) {
    return prefix + "-" + FluxPodSet.NODE + "-0-[" + range(size, 0) + "]";
  }
}
