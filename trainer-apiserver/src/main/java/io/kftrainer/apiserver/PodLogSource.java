package io.kftrainer.apiserver;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Optional;

/**
 * Where the embedded server reads the logs it serves on {@code GET /api/v1/namespaces/NS/pods/NAME/log}
 * ({@code kubectl logs}); see {@link EmbeddedApiServer.Builder#podLogs(PodLogSource)}. Without a source, or when the
 * source answers empty, the server answers 404 as kube-apiserver does for logs it cannot reach.
 */
@FunctionalInterface
public interface PodLogSource {

  /**
   * What the kubelet applies of {@code PodLogOptions}; the server itself applies {@code limitBytes}.
   *
   * @param follow     whether the stream should stay open and deliver new output until the container ends (the
   *                   server streams what it reads, flushing after each read, until the stream ends)
   * @param tailLines  the number of last lines wanted, or null for all
   * @param sinceTime  the time of the first line wanted ({@code sinceTime}, or now less {@code sinceSeconds}), or null
   * @param timestamps whether each line starts with its RFC 3339 time and a space
   * @param previous   the log of the container's previous (terminated) instance
   */
  record Request(boolean follow, Integer tailLines, Instant sinceTime, boolean timestamps, boolean previous) {
  }

  /**
   * Opens the log of one container. The server has checked that the pod exists and resolved the container name.
   *
   * @return the log, or empty when there is none (yet)
   * @throws IllegalArgumentException with the kubelet's message when the request cannot be served (no previous
   *                                  instance): answered 400 BadRequest
   */
  Optional<InputStream> open(String namespace, String pod, String container, Request request) throws IOException;
}
