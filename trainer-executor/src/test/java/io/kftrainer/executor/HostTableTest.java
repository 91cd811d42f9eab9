package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostTableTest {

  @Test
  void eachPodDnsNameHasItsOwnLoopbackAddressKeptOnceGiven() {
    HostTable hosts = new HostTable((5 << 16) + 254);

    assertThat(hosts.addressOf("default", "a-node-0-0", "a")).isEqualTo("127.5.0.254");
    assertThat(hosts.addressOf("default", "a-node-0-1", "a")).as("x.y.255 and x.y.0 are skipped")
        .isEqualTo("127.5.1.1");
    assertThat(hosts.addressOf("other", "a-node-0-0", "a")).isEqualTo("127.5.1.2");
    assertThat(hosts.addressOf("default", "a-node-0-0", "a")).isEqualTo("127.5.0.254");
  }

  @Test
  void twoLocalsOnOneMachineGiveTheirFirstPodsDifferentAddressesOutsideThoseInUse() {
    // before, every local began at 127.0.1.1: two at once put their first masters on the same address and port
    String first = new HostTable().addressOf("default", "a-node-0-0", "a");
    String second = new HostTable().addressOf("default", "a-node-0-0", "a");

    assertThat(first).isNotEqualTo(second).matches("127\\.\\d+\\.\\d+\\.\\d+").doesNotStartWith("127.0.");
    assertThat(second).doesNotStartWith("127.0.");
  }
}
