package io.kftrainer.cli.yaml;

/**
 * A manifest that cannot be read: not YAML, or not a Kubernetes object. The message starts with the source (file
 * name or {@code -}) and fits on one line.
 */
public final class ManifestException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String source;
  private final String detail;

  public ManifestException(String source, String detail, Throwable cause) {
    super(source + ": " + detail, cause);
    this.source = source;
    this.detail = detail;
  }

  public String source() {
    return source;
  }

  /** The message without the source. */
  public String detail() {
    return detail;
  }
}
