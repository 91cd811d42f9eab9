package io.kftrainer.executor;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The kubelet's check of a container's image: a reference of the Docker distribution grammar
 * ({@code [domain[:port]/]path[:tag][@digest]}, lowercase path components, at most 255 characters of name).
 * The API server stores any string as image; the kubelet then fails the container with {@code InvalidImageName}.
 * Images are never pulled here, but the same TrainJob must not run locally and fail on a cluster.
 */
final class ImageReference {

  private static final String ALPHANUMERIC = "[a-z0-9]+";
  private static final String SEPARATOR = "(?:[._]|__|-+)";
  private static final String PATH_COMPONENT = ALPHANUMERIC + "(?:" + SEPARATOR + ALPHANUMERIC + ")*";
  private static final String DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
  private static final String HOST = "(?:" + DOMAIN_COMPONENT + "(?:\\." + DOMAIN_COMPONENT + ")*"
      + "|\\[[a-fA-F0-9:]+\\])";
  private static final String NAME = "(?:" + HOST + "(?::[0-9]+)?/)?" + PATH_COMPONENT + "(?:/" + PATH_COMPONENT + ")*";
  private static final String TAG = "[\\w][\\w.-]{0,127}";
  private static final String DIGEST = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
  private static final Pattern REFERENCE = Pattern.compile("(" + NAME + ")(?::" + TAG + ")?(?:@" + DIGEST + ")?");
  private static final int MAX_NAME = 255;

  private ImageReference() {
  }

  /** The kubelet's message for an image it cannot parse; empty for a valid one, or none (not checked here). */
  static Optional<String> error(String image) {
    if (image == null || image.isEmpty()) {
      return Optional.empty();
    }
    var matcher = REFERENCE.matcher(image);
    if (matcher.matches() && matcher.group(1).length() <= MAX_NAME) {
      return Optional.empty();
    }
    return Optional.of("Failed to apply default image tag \"" + image + "\": couldn't parse image name \"" + image
        + "\": invalid reference format");
  }
}
