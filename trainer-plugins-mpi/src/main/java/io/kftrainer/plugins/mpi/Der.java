package io.kftrainer.plugins.mpi;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;

/**
 * The few ASN.1 DER encodings an SEC 1 EC private key needs (ITU-T X.690): definite lengths, primitive values
 * given as bytes. Hand-written so that the plugin needs no cryptography library beyond the JDK.
 */
final class Der {

  private static final int SEQUENCE = 0x30;
  private static final int INTEGER = 0x02;
  private static final int OCTET_STRING = 0x04;
  private static final int BIT_STRING = 0x03;
  private static final int OBJECT_IDENTIFIER = 0x06;
  private static final int CONTEXT_CONSTRUCTED = 0xA0;

  private Der() {
  }

  static byte[] sequence(byte[]... elements) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] element : elements) {
      content.writeBytes(element);
    }
    return tlv(SEQUENCE, content.toByteArray());
  }

  static byte[] integer(long value) {
    return tlv(INTEGER, BigInteger.valueOf(value).toByteArray());
  }

  static byte[] octetString(byte[] value) {
    return tlv(OCTET_STRING, value);
  }

  /** A bit string of whole bytes (no unused bits). */
  static byte[] bitString(byte[] value) {
    byte[] content = new byte[value.length + 1];
    System.arraycopy(value, 0, content, 1, value.length);
    return tlv(BIT_STRING, content);
  }

  /** An object identifier from its encoded content octets, e.g. {@code 2B 81 04 00 23} for 1.3.132.0.35. */
  static byte[] objectIdentifier(byte[] encodedArcs) {
    return tlv(OBJECT_IDENTIFIER, encodedArcs);
  }

  /** An explicitly tagged {@code [tag]} element. */
  static byte[] explicit(int tag, byte[] element) {
    return tlv(CONTEXT_CONSTRUCTED | tag, element);
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    writeLength(out, content.length);
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static void writeLength(ByteArrayOutputStream out, int length) {
    if (length < 0x80) {
      out.write(length);
      return;
    }
    int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
    out.write(0x80 | bytes);
    for (int i = bytes - 1; i >= 0; i--) {
      out.write(length >>> (8 * i));
    }
  }
}
