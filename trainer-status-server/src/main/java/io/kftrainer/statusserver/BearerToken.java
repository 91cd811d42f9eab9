package io.kftrainer.statusserver;

import java.util.Locale;

/** The credentials of an RFC 7235 {@code Authorization: Bearer <token>} header, as upstream's extractRawToken. */
final class BearerToken {

  private BearerToken() {
  }

  /**
   * The token, or empty when the header does not carry exactly one bearer credential: the scheme matches
   * case-insensitively, surrounding and separating whitespace is tolerated.
   */
  static String of(String header) {
    if (header == null) {
      return "";
    }
    String[] parts = header.trim().split("\\s+");
    if (parts.length != 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer")) {
      return "";
    }
    return parts[1];
  }
}
