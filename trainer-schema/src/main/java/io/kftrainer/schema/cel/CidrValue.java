package io.kftrainer.schema.cel;

import com.google.common.net.InetAddresses;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A network prefix as Kubernetes' CEL {@code cidr()} accepts it (Go's {@code netip.ParsePrefix}): an address as
 * written, not masked ({@link #ip()}), and a prefix length.
 */
record CidrValue(InetAddress address, int prefixLength) {

  static CidrValue parse(String text) {
    String prefix = "network address parse error during conversion from string: netip.ParsePrefix("
        + IpValue.quote(text) + "): ";
    int slash = text.lastIndexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(prefix + "no '/'");
    }
    InetAddress address = IpValue.address(text.substring(0, slash), prefix + "ParseAddr("
        + IpValue.quote(text.substring(0, slash)) + "): ");
    String bits = text.substring(slash + 1);
    int length;
    if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(Character::isDigit)
        || (bits.length() > 1 && bits.startsWith("0"))) {
      throw new IllegalArgumentException(prefix + "bad bits after slash: " + IpValue.quote(bits));
    }
    length = Integer.parseInt(bits);
    if (length > address.getAddress().length * 8) {
      throw new IllegalArgumentException(prefix + "prefix length out of range");
    }
    return new CidrValue(address, length);
  }

  IpValue ip() {
    return new IpValue(address);
  }

  CidrValue masked() {
    return new CidrValue(mask(address), prefixLength);
  }

  boolean containsIp(InetAddress other) {
    return other.getAddress().length == address.getAddress().length
        && mask(other).equals(mask(address));
  }

  boolean containsCidr(CidrValue other) {
    return other.prefixLength >= prefixLength && containsIp(other.address);
  }

  private InetAddress mask(InetAddress ip) {
    byte[] bytes = ip.getAddress();
    for (int bit = prefixLength; bit < bytes.length * 8; bit++) {
      bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e); // only thrown for a wrong length
    }
  }

  @Override
  public String toString() {
    return InetAddresses.toAddrString(address) + "/" + prefixLength;
  }
}
