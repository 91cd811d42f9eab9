package io.kftrainer.e2e.secrets;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Greps texts (logs, API answers, command output) for private keys: the fragments of known keys, in every form they
 * take (the PEM or OpenSSH text's body lines, the base64 a Secret's {@code data} holds), and the markers of any
 * private key, known or not (PEM and OpenSSH headers, plain and base64-encoded). Certificates and public keys are
 * not secrets and do not count.
 */
final class KeyMaterialScanner {

  /** A key text found in a source: which one, and what was matched (never the key itself). */
  record Finding(String source, String what) {
  }

  /**
   * Fragments of {@value #FRAGMENT} characters every {@value #STEP}: long enough that no unrelated text holds one by
   * chance; any copy of {@code FRAGMENT + STEP - 1} characters or more holds one.
   */
  private static final int FRAGMENT = 32;
  private static final int STEP = 16;

  private static final List<Pattern> MARKERS = markers();

  private final Map<String, String> fragments = new LinkedHashMap<>();
  private final List<Finding> findings = new ArrayList<>();
  private int sources;
  private long bytes;

  /** Adds a private key (its PEM or OpenSSH text) to look for, as itself and as the base64 of a Secret's data. */
  void addKey(String name, String keyText) {
    keyText.lines().map(String::strip).filter(line -> !line.startsWith("-----"))
        .forEach(line -> addFragments(line, name + " (text)"));
    addFragments(Base64.getEncoder().encodeToString(keyText.getBytes(StandardCharsets.US_ASCII)), name + " (base64)");
  }

  private void addFragments(String text, String what) {
    for (int start = 0; start + FRAGMENT <= text.length(); start += STEP) {
      fragments.putIfAbsent(text.substring(start, start + FRAGMENT), what);
    }
  }

  int keys() {
    return (int) fragments.values().stream().map(what -> what.substring(0, what.lastIndexOf(" ("))).distinct()
        .count();
  }

  void scan(String source, String text) {
    sources++;
    bytes += text.length();
    fragments.forEach((fragment, what) -> {
      if (text.contains(fragment)) {
        findings.add(new Finding(source, what));
      }
    });
    for (Pattern marker : MARKERS) {
      Matcher matcher = marker.matcher(text);
      if (matcher.find()) {
        findings.add(new Finding(source, "marker " + marker.pattern()));
      }
    }
  }

  List<Finding> findings() {
    return List.copyOf(findings);
  }

  int sources() {
    return sources;
  }

  long bytes() {
    return bytes;
  }

  /**
   * {@code -----BEGIN} of anything but a certificate, {@code PRIVATE KEY}, OpenSSH's {@code openssh-key-v1} as text
   * and as the start of a base64 key body, and {@code PRIVATE KEY-----} base64-encoded at each of its three
   * possible alignments (a PEM inside base64, such as a Secret's data).
   */
  private static List<Pattern> markers() {
    List<Pattern> markers = new ArrayList<>(List.of(Pattern.compile("-----BEGIN (?!CERTIFICATE)"),
        Pattern.compile(Pattern.quote("PRIVATE KEY")), Pattern.compile(Pattern.quote("openssh-key-v1")),
        Pattern.compile(Pattern.quote("b3BlbnNzaC1rZXktdjE"))));
    byte[] marker = " PRIVATE KEY-----".getBytes(StandardCharsets.US_ASCII);
    for (int offset = 0; offset < 3; offset++) {
      byte[] shifted = new byte[offset + marker.length];
      System.arraycopy(marker, 0, shifted, offset, marker.length);
      String encoded = Base64.getEncoder().withoutPadding().encodeToString(shifted);
      // drop the characters that also encode the shift's bytes, and the last group (it depends on what follows)
      int from = offset == 0 ? 0 : 4;
      int to = (shifted.length / 3) * 4;
      markers.add(Pattern.compile(Pattern.quote(encoded.substring(from, to))));
    }
    return List.copyOf(markers);
  }
}
