package io.kftrainer.statusserver;

/**
 * Decides whether a bearer token may update one TrainJob's status: it must be a ServiceAccount token of the
 * TrainJob's namespace whose audience is the TrainJob's status endpoint
 * ({@link io.kftrainer.api.v1alpha1.TrainJobStatusEndpoint#audience}), as the {@code TrainJobStatus} plugin projects
 * it into the trainer's pods.
 */
public interface TokenAuthenticator {

  /**
   * @param token the bearer token, empty when the request had none
   * @throws IllegalStateException if the decision cannot be made now (the cluster's keys cannot be read): the server
   *     answers 500 and the client retries
   */
  Verdict verify(String token, String namespace, String trainJobName);
}
