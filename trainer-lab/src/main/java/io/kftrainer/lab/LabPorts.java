package io.kftrainer.lab;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports on 127.0.0.1 for the lab's servers, which are started as processes and so need their port before they
 * bind it. Taken below Linux's ephemeral range (32768 and up by default): a port the kernel hands out as the local
 * end of some connection could otherwise be taken between the check here and the server's bind (a free port from
 * {@code new ServerSocket(0)} failed a CI run so). A port is given once per JVM.
 */
public final class LabPorts {

  private static final int LOWEST = 20000;
  private static final int HIGHEST = 32000;
  private static final Set<Integer> GIVEN = new HashSet<>();

  private LabPorts() {
  }

  /** A port of 127.0.0.1 that nothing listens on now, and that this JVM has not given before. */
  public static synchronized int free() {
    for (int attempt = 0; attempt < 1000; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
      if (GIVEN.contains(port)) {
        continue;
      }
      try (ServerSocket socket = new ServerSocket()) {
        socket.setReuseAddress(false);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        GIVEN.add(port);
        return port;
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IllegalStateException("no free port between " + LOWEST + " and " + HIGHEST + " on 127.0.0.1");
  }
}
