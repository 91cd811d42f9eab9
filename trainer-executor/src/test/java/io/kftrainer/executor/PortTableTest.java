package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortTableTest {

  @Test
  void theFirstGroupKeepsAFreePortAndALaterLiveGroupGetsAnotherForAllItsPods() throws Exception {
    int declared = freePort();
    PortTable ports = new PortTable();

    assertThat(ports.ports("default/jobset/a", Set.of(declared))).containsEntry(declared, declared);
    int remapped = ports.ports("default/jobset/b", Set.of(declared)).get(declared);
    assertThat(remapped).isNotEqualTo(declared);
    assertThat(ports.ports("default/jobset/b", Set.of(declared))).as("the same for every pod of the group")
        .containsEntry(declared, remapped);

    ports.release("default/jobset/a");
    assertThat(ports.ports("default/jobset/c", Set.of(declared))).containsEntry(declared, declared);
  }

  @Test
  void aPortThatAnotherProcessHoldsIsRemappedEvenForTheFirstGroup() throws Exception {
    // another local's master: torch's store listens on every address, so a pod's own loopback address is no help
    try (ServerSocket other = new ServerSocket()) {
      other.setReuseAddress(false);
      other.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int held = other.getLocalPort();

      int mapped = new PortTable().ports("default/jobset/a", Set.of(held)).get(held);

      assertThat(mapped).isNotEqualTo(held);
      assertThat(PortTable.bindable(mapped)).isTrue();
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
