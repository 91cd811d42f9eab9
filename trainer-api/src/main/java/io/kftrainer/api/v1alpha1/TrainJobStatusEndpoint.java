package io.kftrainer.api.v1alpha1;

/**
 * The names the training code, the {@code TrainJobStatus} plugin and the status server agree on for one TrainJob
 * (upstream's {@code statusserver.StatusUrl} and {@code statusserver.TokenAudience}): the path the code POSTs an
 * {@link UpdateTrainJobStatusRequest} to, and the audience of the projected ServiceAccount token it presents.
 */
public final class TrainJobStatusEndpoint {

  private static final String PREFIX = TrainerConstants.GROUP + "/" + TrainerConstants.VERSION + "/namespaces/";

  private TrainJobStatusEndpoint() {
  }

  /** {@code /apis/trainer.kubeflow.org/v1alpha1/namespaces/<ns>/trainjobs/<name>/status}. */
  public static String path(String namespace, String name) {
    return "/apis/" + audience(namespace, name);
  }

  /** {@code trainer.kubeflow.org/v1alpha1/namespaces/<ns>/trainjobs/<name>/status}. */
  public static String audience(String namespace, String name) {
    return PREFIX + namespace + "/trainjobs/" + name + "/status";
  }
}
