package io.kftrainer.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;

/** The {@code tls} section applied to a server's TLS parameters, as Go's {@code tls.Config} would be set. */
class TlsOptionsTest {

  @Test
  void byDefaultTls12AndLaterOverHttp11() throws Exception {
    SSLParameters parameters = SSLContext.getDefault().getDefaultSSLParameters();

    TlsOptions.DEFAULTS.configure(parameters);

    assertThat(parameters.getProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
    assertThat(parameters.getApplicationProtocols()).containsExactly("http/1.1");
  }

  @Test
  void minVersionIsThatVersionAndEveryLaterOne() {
    assertThat(new TlsOptions(Optional.of("1.3"), List.of(), List.of()).protocols()).containsExactly("TLSv1.3");
    assertThat(new TlsOptions(Optional.of("1.0"), List.of(), List.of()).protocols())
        .containsExactly("TLSv1.3", "TLSv1.2", "TLSv1.1", "TLSv1");
  }

  @Test
  void cipherSuitesRestrictTls12AndLeaveTls13sSuitesAsGoDoes() throws Exception {
    SSLParameters parameters = SSLContext.getDefault().getDefaultSSLParameters();

    new TlsOptions(Optional.empty(), List.of("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305"), List.of()).configure(parameters);

    assertThat(parameters.getCipherSuites()).startsWith("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256")
        .contains("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384")
        .noneMatch(suite -> suite.contains("_WITH_") && !suite.contains("CHACHA20"));
  }
}
