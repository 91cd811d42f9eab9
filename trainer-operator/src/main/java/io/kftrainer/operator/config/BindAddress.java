package io.kftrainer.operator.config;

import java.util.Optional;

/**
 * A server address as controller-runtime's options write it: {@code host:port}, {@code :port} (every interface),
 * {@code [::1]:port}, or {@code 0} for "do not serve".
 *
 * @param host the interface to listen on; {@code 0.0.0.0} when the text names none
 * @param port the port; 0 picks a free one
 */
public record BindAddress(String host, int port) {

  /** Every interface, as Go's empty host. */
  public static final String ANY_HOST = "0.0.0.0";
  /** The text that switches a server off. */
  public static final String DISABLED = "0";

  /**
   * The address {@code text} names, or empty for {@value #DISABLED}.
   *
   * @throws IllegalArgumentException if it is not {@code [host]:port} with a port from 0 to 65535
   */
  public static Optional<BindAddress> parse(String text) {
    if (DISABLED.equals(text)) {
      return Optional.empty();
    }
    int colon = text == null ? -1 : text.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("must be host:port, :port or " + DISABLED);
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("an IPv6 host must be in brackets, e.g. [::1]:8443");
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the port must be a number");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("the port must be between 0 and 65535");
    }
    return Optional.of(new BindAddress(host.isEmpty() ? ANY_HOST : host, port));
  }
}
