package io.kftrainer.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which certificate DNS names a webhook's server name matches (chain checks: {@link WebhookDispatcherTest}). */
class CaBundleTrustTest {

  static Stream<Arguments> names() {
    return Stream.of(
        Arguments.of("the same name matches", "svc.ns.svc", "svc.ns.svc", true),
        Arguments.of("names match without regard to case", "SVC.ns.svc", "svc.NS.svc", true),
        Arguments.of("another service does not match", "svc.ns.svc", "other.ns.svc", false),
        Arguments.of("a wildcard matches one leftmost label", "*.ns.svc", "svc.ns.svc", true),
        Arguments.of("a wildcard does not match two labels", "*.svc", "svc.ns.svc", false),
        Arguments.of("a wildcard does not match the bare domain", "*.ns.svc", "ns.svc", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void dnsMatches(String name, String pattern, String host, boolean expected) {
    assertThat(CaBundleTrust.dnsMatches(pattern, host)).isEqualTo(expected);
  }
}
