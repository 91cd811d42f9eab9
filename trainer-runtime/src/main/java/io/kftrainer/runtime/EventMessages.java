package io.kftrainer.runtime;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Event messages as the operator records them: at most {@value #MAX_LENGTH} characters, then {@code " ..."}
 * (upstream's limit, which keeps Events under the API server's 1024), and without anything that looks like secret
 * material.
 *
 * <p>Messages carry exception text the operator does not control (a plugin's, the API server's), and Events are
 * readable by far more people than Secrets. So PEM blocks and long base64 runs (key material, Secret
 * {@code data} values) are replaced by {@value #REDACTED} before anything is recorded. The operator itself never
 * puts an object's content into a message. The admission webhooks use the same text for their answers and logs.
 */
public final class EventMessages {

  public static final int MAX_LENGTH = 950;
  static final String REDACTED = "[redacted]";

  private static final Pattern PEM =
      Pattern.compile("-----BEGIN [A-Z0-9 ]+-----.*?(-----END [A-Z0-9 ]+-----|$)", Pattern.DOTALL);
  /** 40 or more base64 characters mixing upper case, lower case and digits: an encoded secret, not prose. */
  private static final Pattern BASE64_RUN = Pattern.compile("[A-Za-z0-9+/]{40,}={0,2}");

  private EventMessages() {
  }

  /** {@code message} truncated and with secret-looking material redacted. */
  public static String of(String message) {
    String text = message == null ? "" : message;
    text = PEM.matcher(text).replaceAll(REDACTED);
    text = redactBase64(text);
    return text.length() > MAX_LENGTH ? text.substring(0, MAX_LENGTH) + " ..." : text;
  }

  private static String redactBase64(String text) {
    Matcher runs = BASE64_RUN.matcher(text);
    StringBuilder result = new StringBuilder();
    while (runs.find()) {
      String run = runs.group();
      boolean encoded = run.chars().anyMatch(Character::isUpperCase) && run.chars().anyMatch(Character::isLowerCase)
          && run.chars().anyMatch(Character::isDigit);
      runs.appendReplacement(result, Matcher.quoteReplacement(encoded ? REDACTED : run));
    }
    runs.appendTail(result);
    return result.toString();
  }
}
