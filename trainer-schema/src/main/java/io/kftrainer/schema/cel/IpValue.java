package io.kftrainer.schema.cel;

import com.google.common.net.InetAddresses;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * An IP address as Kubernetes' CEL {@code ip()} accepts it (Go's {@code netip.ParseAddr}, without zones and without
 * IPv4-mapped IPv6 addresses). Literals are parsed by Guava's {@link InetAddresses} (never a DNS lookup, no leading
 * zeros); printed in canonical form (RFC 5952 for IPv6).
 */
record IpValue(InetAddress address) {

  /** The address {@code text} denotes; {@link IllegalArgumentException} with kube's message when it is not one. */
  static IpValue parse(String text) {
    return new IpValue(address(text, "IP Address " + quote(text) + " parse error during conversion from string: "
        + "ParseAddr(" + quote(text) + "): "));
  }

  /** Parses an address, Go's reason appended to {@code errorPrefix} when it is not one. */
  static InetAddress address(String text, String errorPrefix) {
    if (text.contains("%")) {
      throw new IllegalArgumentException("IP address " + quote(text) + " with zone value is not allowed");
    }
    InetAddress address;
    try {
      address = InetAddresses.forString(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(errorPrefix + reason(text));
    }
    if (text.contains(":") && address instanceof Inet4Address) {
      throw new IllegalArgumentException("IPv4-mapped IPv6 address " + quote(text) + " is not allowed");
    }
    return address;
  }

  /** Go's reasons for the common IPv4 mistakes; one generic reason otherwise. */
  private static String reason(String text) {
    if (text.isEmpty()) {
      return "unable to parse IP";
    }
    if (text.contains(":") || !text.contains(".")) {
      return text.contains(":") ? "unable to parse IPv6 address" : "unable to parse IP";
    }
    String[] fields = text.split("\\.", -1);
    if (fields.length < 4) {
      return "IPv4 address too short";
    }
    if (fields.length > 4) {
      return "IPv4 address too long";
    }
    for (String field : fields) {
      if (field.isEmpty() || !field.chars().allMatch(Character::isDigit)) {
        return field.isEmpty() ? "IPv4 field must have at least one digit" : "unexpected character";
      }
      if (field.length() > 1 && field.startsWith("0")) {
        return "IPv4 field has octet with leading zero";
      }
    }
    return "IPv4 field has value >255";
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  long family() {
    return address instanceof Inet4Address ? 4 : 6;
  }

  boolean isUnspecified() {
    return address.isAnyLocalAddress();
  }

  boolean isLoopback() {
    return address.isLoopbackAddress();
  }

  /** 224.0.0.0/24 or ff02::/16, as Go's {@code IsLinkLocalMulticast}. */
  boolean isLinkLocalMulticast() {
    byte[] b = address.getAddress();
    return b.length == 4 ? (b[0] & 0xff) == 224 && b[1] == 0 && b[2] == 0 : (b[0] & 0xff) == 0xff && b[1] == 0x02;
  }

  /** 169.254.0.0/16 or fe80::/10. */
  boolean isLinkLocalUnicast() {
    return address.isLinkLocalAddress();
  }

  /** Go's {@code IsGlobalUnicast}: none of the above, not multicast, not the IPv4 broadcast address. */
  boolean isGlobalUnicast() {
    byte[] b = address.getAddress();
    boolean broadcast = b.length == 4 && (b[0] & b[1] & b[2] & b[3]) == (byte) 0xff;
    return !isUnspecified() && !isLoopback() && !address.isMulticastAddress() && !isLinkLocalUnicast() && !broadcast;
  }

  @Override
  public String toString() {
    return InetAddresses.toAddrString(address);
  }
}
