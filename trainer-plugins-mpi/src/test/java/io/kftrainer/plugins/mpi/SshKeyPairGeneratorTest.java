package io.kftrainer.plugins.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.util.io.pem.PemReader;
import org.junit.jupiter.api.Test;

class SshKeyPairGeneratorTest {

  private final SshKeyPair keys = SshKeyPairGenerator.generate();
  private final String pem = new String(keys.privateKeyPem(), StandardCharsets.US_ASCII);
  private final String authorizedKey = keys.authorizedKeyText();

  @Test
  void privateKeyIsAnEcPrivateKeyPemWithLinesOf64Characters() {
    assertThat(pem).startsWith(SshKeyAssertions.PEM_HEADER).endsWith(SshKeyAssertions.PEM_FOOTER);
    String body = pem.substring(SshKeyAssertions.PEM_HEADER.length(),
        pem.length() - SshKeyAssertions.PEM_FOOTER.length());
    assertThat(body.split("\n")).allSatisfy(line -> assertThat(line.length()).isBetween(1, 64));
  }

  @Test
  void privateKeyIsSec1WithVersionCurveAndPublicKeyAsGoEncodesIt() throws IOException {
    ASN1Sequence sequence;
    try (PemReader reader = new PemReader(new StringReader(pem))) {
      sequence = ASN1Sequence.getInstance(reader.readPemObject().getContent());
    }
    ECPrivateKey sec1 = ECPrivateKey.getInstance(sequence);

    assertThat(ASN1Integer.getInstance(sequence.getObjectAt(0)).intValueExact()).as("version").isEqualTo(1);
    assertThat(ASN1OctetString.getInstance(sequence.getObjectAt(1)).getOctets())
        .as("private scalar, fixed length as Go writes it").hasSize(66);
    assertThat(sec1.getParametersObject()).isEqualTo(SECObjectIdentifiers.secp521r1);
    assertThat(sec1.getPublicKey()).as("public key [1]").isNotNull();
    assertThat(sec1.getPublicKey().getBytes()).hasSize(133);
  }

  @Test
  void privateKeyIsOnP521() {
    KeyPair pair = SshKeyAssertions.parsePem(pem);

    assertThat(pair.getPrivate()).isInstanceOf(java.security.interfaces.ECPrivateKey.class);
    assertThat(((java.security.interfaces.ECPrivateKey) pair.getPrivate()).getParams().getCurve().getField().getFieldSize()).isEqualTo(521);
  }

  @Test
  void publicKeyIsAnAuthorizedKeysLineOfThePrivateKey() {
    assertThat(authorizedKey).matches("ecdsa-sha2-nistp521 AAAA[A-Za-z0-9+/]+=*\n");
    SshKeyAssertions.assertMatchingPair(pem, authorizedKey);
  }

  @Test
  void everyCallGeneratesANewPair() {
    SshKeyPair other = SshKeyPairGenerator.generate();

    assertThat(other.privateKeyPem()).isNotEqualTo(keys.privateKeyPem());
    assertThat(other.authorizedKey()).isNotEqualTo(keys.authorizedKey());
  }
}
