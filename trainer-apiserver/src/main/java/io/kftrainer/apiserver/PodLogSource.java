package io.kftrainer.apiserver;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Where the embedded server reads the logs it serves on {@code GET /api/v1/namespaces/NS/pods/NAME/log}
 * ({@code kubectl logs}); see {@link EmbeddedApiServer.Builder#podLogs(PodLogSource)}. Without a source, or when the
 * source answers empty, the server answers 404 as kube-apiserver does for logs it cannot reach.
 */
@FunctionalInterface
public interface PodLogSource {

  /**
   * Opens the log of one container. The server has checked that the pod exists and resolved the container name.
   *
   * @param follow    whether the stream should stay open and deliver new output until the container ends (the server
   *                  streams what it reads, flushing after each read, until the stream ends)
   * @param tailLines the number of last lines wanted, or null for all; the server keeps the last lines of a stream
   *                  that is not followed, a followed stream should start with them itself
   * @return the log, or empty when there is none (yet)
   */
  Optional<InputStream> open(String namespace, String pod, String container, boolean follow, Integer tailLines)
      throws IOException;
}
