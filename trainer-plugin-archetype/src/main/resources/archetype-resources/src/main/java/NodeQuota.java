package ${package};

/**
 * The settings of {@link NodeQuotaValidation}: its section of the operator's {@code --plugin-config} file.
 *
 * @param maxNodes the most nodes a TrainJob may run on (default 8)
 */
public record NodeQuota(Integer maxNodes) {

  public NodeQuota {
    maxNodes = maxNodes == null ? 8 : maxNodes;
    if (maxNodes < 1) {
      throw new IllegalArgumentException("maxNodes: must be at least 1, not " + maxNodes);
    }
  }
}
