package io.kftrainer.schema.cel;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL parsed as Go's {@code url.ParseRequestURI} parses it, which Kubernetes' {@code url()} and {@code isURL()}
 * use: an absolute URI ({@code scheme://host/path?query}) or an absolute path, no fragment. {@link java.net.URI} is not
 * used because it rejects what Go accepts (spaces in a path) and splits hosts differently.
 *
 * @param scheme   as written, may be empty
 * @param host     host and port as written, IPv6 literals in brackets; empty when there is no authority
 * @param rawPath  the path as written (still escaped)
 * @param rawQuery what follows '?', may be empty
 */
record GoUrl(String scheme, String host, String rawPath, String rawQuery) {

  /** Go's {@code url.Error} text: {@code parse "<url>": <reason>}. */
  static final class ParseException extends Exception {
    ParseException(String url, String reason) {
      super("parse \"" + url + "\": " + reason);
    }
  }

  /**
   * Kubernetes' {@code url()}: validates {@code url} as a request URI, where a '#' is one more character of the path
   * or query, then, as kube parses it a second time with Go's {@code url.Parse}, drops the fragment.
   */
  static GoUrl parseRequestUri(String url) throws ParseException {
    GoUrl parsed = parse(url);
    int hash = url.indexOf('#');
    return hash < 0 ? parsed : parse(url.substring(0, hash));
  }

  private static GoUrl parse(String url) throws ParseException {
    for (char c : url.toCharArray()) {
      if (c < 0x20 || c == 0x7f) {
        throw new ParseException(url, "net/url: invalid control character in URL");
      }
    }
    if (url.isEmpty()) {
      throw new ParseException(url, "empty url");
    }
    String scheme = scheme(url);
    String rest = url.substring(scheme.isEmpty() ? 0 : scheme.length() + 1);
    String rawQuery = "";
    int question = rest.indexOf('?');
    if (question >= 0) {
      rawQuery = rest.substring(question + 1);
      rest = rest.substring(0, question);
    }
    if (!rest.startsWith("/")) {
      throw new ParseException(url, "invalid URI for request");
    }
    String host = "";
    if (!scheme.isEmpty() && rest.startsWith("//")) {
      int slash = rest.indexOf('/', 2);
      String authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
      rest = slash < 0 ? "" : rest.substring(slash);
      host = host(url, authority.substring(authority.lastIndexOf('@') + 1));
    }
    unescape(url, rest, false);
    return new GoUrl(scheme, host, rest, rawQuery);
  }

  private static String scheme(String url) throws ParseException {
    for (int i = 0; i < url.length(); i++) {
      char c = url.charAt(i);
      if (Character.isLetter(c) && c < 0x80) {
        continue;
      }
      if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
        if (i == 0) {
          return "";
        }
        continue;
      }
      if (c == ':') {
        if (i == 0) {
          throw new ParseException(url, "missing protocol scheme");
        }
        return url.substring(0, i);
      }
      return "";
    }
    return "";
  }

  private static String host(String url, String host) throws ParseException {
    String port = "";
    if (host.startsWith("[")) {
      int close = host.lastIndexOf(']');
      if (close < 0) {
        throw new ParseException(url, "missing ']' in host");
      }
      String after = host.substring(close + 1);
      if (!after.isEmpty() && !after.startsWith(":")) {
        throw new ParseException(url, "invalid port \"" + after + "\" after host");
      }
      port = after.isEmpty() ? "" : after.substring(1);
    } else if (host.lastIndexOf(':') >= 0) {
      port = host.substring(host.lastIndexOf(':') + 1);
    }
    if (!port.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new ParseException(url, "invalid port \":" + port + "\" after host");
    }
    unescape(url, host, false);
    return host;
  }

  /** The host without its port, IPv6 literals without brackets (Go's {@code Hostname()}). */
  String hostname() {
    String name = host;
    if (name.startsWith("[")) {
      return name.substring(1, Math.max(1, name.indexOf(']')));
    }
    int colon = name.lastIndexOf(':');
    return colon < 0 ? name : name.substring(0, colon);
  }

  /** The port as written, or empty (Go's {@code Port()}). */
  String port() {
    int close = host.lastIndexOf(']');
    int colon = host.lastIndexOf(':');
    return colon > close ? host.substring(colon + 1) : "";
  }

  /** The path as written when it is validly escaped, else its decoded form escaped again (Go's {@code EscapedPath()}). */
  String escapedPath() {
    if (validEncoded(rawPath)) {
      return rawPath;
    }
    String path;
    try {
      path = unescape("", rawPath, false);
    } catch (ParseException e) {
      return rawPath;
    }
    StringBuilder escaped = new StringBuilder();
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (c < 0x80 && !shouldEscapeInPath(c)) {
        escaped.append(c);
      } else {
        escaped.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return escaped.toString();
  }

  /** The query's values by key, in order; malformed pairs are skipped (Go's {@code Query()}). */
  Map<String, List<String>> query() {
    Map<String, List<String>> values = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&", -1)) {
      if (pair.isEmpty() || pair.contains(";")) {
        continue;
      }
      int equals = pair.indexOf('=');
      try {
        String key = unescape("", equals < 0 ? pair : pair.substring(0, equals), true);
        String value = equals < 0 ? "" : unescape("", pair.substring(equals + 1), true);
        values.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      } catch (ParseException e) {
        // Go drops a pair it cannot decode
      }
    }
    return values;
  }

  private static boolean shouldEscapeInPath(char c) {
    if (Character.isLetterOrDigit(c) || "-_.~".indexOf(c) >= 0) {
      return false;
    }
    return "$&+,/:;=@".indexOf(c) < 0;
  }

  private static boolean validEncoded(String path) {
    for (char c : path.toCharArray()) {
      if ("!$&'()*+,;=:@[]%".indexOf(c) >= 0) {
        continue;
      }
      if (c >= 0x80 || shouldEscapeInPath(c)) {
        return false;
      }
    }
    return true;
  }

  private static String unescape(String url, String s, boolean plusIsSpace) throws ParseException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] in = s.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < in.length; i++) {
      if (in[i] == '%') {
        if (i + 2 >= in.length || Character.digit(in[i + 1], 16) < 0 || Character.digit(in[i + 2], 16) < 0) {
          String bad = new String(in, i, Math.min(3, in.length - i), StandardCharsets.UTF_8);
          throw new ParseException(url, "invalid URL escape \"" + bad + "\"");
        }
        bytes.write(Character.digit(in[i + 1], 16) * 16 + Character.digit(in[i + 2], 16));
        i += 2;
      } else {
        bytes.write(plusIsSpace && in[i] == '+' ? ' ' : in[i]);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
