package io.kftrainer.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** controller-runtime's bind addresses. */
class BindAddressTest {

  @Test
  void hostAndPortOrEveryInterfaceOrOff() {
    assertThat(BindAddress.parse(":8443")).contains(new BindAddress("0.0.0.0", 8443));
    assertThat(BindAddress.parse("127.0.0.1:8081")).contains(new BindAddress("127.0.0.1", 8081));
    assertThat(BindAddress.parse("[::1]:9443")).contains(new BindAddress("::1", 9443));
    assertThat(BindAddress.parse(":0")).contains(new BindAddress("0.0.0.0", 0));
    assertThat(BindAddress.parse("0")).isEqualTo(Optional.empty());
  }

  @Test
  void anythingElseIsRefusedSayingWhy() {
    assertThatThrownBy(() -> BindAddress.parse("8443")).hasMessage("must be host:port, :port or 0");
    assertThatThrownBy(() -> BindAddress.parse("::1:9443")).hasMessage("an IPv6 host must be in brackets, e.g. "
        + "[::1]:8443");
    assertThatThrownBy(() -> BindAddress.parse(":70000")).hasMessage("the port must be between 0 and 65535");
    assertThatThrownBy(() -> BindAddress.parse("host:")).hasMessage("the port must be a number");
  }
}
