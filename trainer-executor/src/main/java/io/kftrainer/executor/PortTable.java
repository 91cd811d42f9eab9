package io.kftrainer.executor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Container ports per group of pods that talk to each other (a JobSet; a lone pod is its own group). The first
 * group to declare a port keeps it; a later group whose port is taken by a live group, or by any process of this
 * machine, gets a free port instead, for all its pods, and {@link Rewriter} replaces the port where env and args
 * name it. So two TrainJobs whose masters both listen on 29500 run at once, in one {@code local} or in two: torch's
 * store binds its port on every address, so the pods' own loopback addresses do not keep two {@code local}s' masters
 * apart. Used from the kubelet's thread only.
 */
final class PortTable {

  private final Map<String, Map<Integer, Integer>> groups = new HashMap<>();

  /** The mapping of {@code group}, extended with {@code declared} ports. */
  Map<Integer, Integer> ports(String group, Set<Integer> declared) {
    Map<Integer, Integer> mapping = groups.computeIfAbsent(group, g -> new HashMap<>());
    for (Integer port : declared) {
      if (!mapping.containsKey(port)) {
        mapping.put(port, taken(group).contains(port) || !bindable(port) ? freePort() : port);
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

  /** Whether nothing of this machine holds {@code port} on any address: a server could bind it everywhere now. */
  static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
