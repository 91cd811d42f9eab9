package io.kftrainer.executor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Container ports per group of pods that talk to each other (a JobSet; a lone pod is its own group). The first
 * group to declare a port keeps it; a later group whose port is taken by a live group gets a free port instead,
 * for all its pods, and {@link Rewriter} replaces the port where env and args name it. So two TrainJobs whose
 * masters both listen on 29500 run at once. Used from the kubelet's thread only.
 */
final class PortTable {

  private final Map<String, Map<Integer, Integer>> groups = new HashMap<>();

  /** The mapping of {@code group}, extended with {@code declared} ports. */
  Map<Integer, Integer> ports(String group, Set<Integer> declared) {
    Map<Integer, Integer> mapping = groups.computeIfAbsent(group, g -> new HashMap<>());
    for (Integer port : declared) {
      if (!mapping.containsKey(port)) {
        mapping.put(port, taken(group).contains(port) ? freePort() : port);
      }
    }
    return Map.copyOf(mapping);
  }

  void release(String group) {
    groups.remove(group);
  }

  private Set<Integer> taken(String group) {
    Set<Integer> taken = new HashSet<>();
    groups.forEach((g, mapping) -> {
      if (!g.equals(group)) {
        taken.addAll(mapping.values());
      }
    });
    return taken;
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
