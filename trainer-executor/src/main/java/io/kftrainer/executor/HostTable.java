package io.kftrainer.executor;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One loopback address per pod DNS name ({@code 127.a.b.c}; Linux routes all of 127/8 to the loopback interface),
 * handed out on first use, so that a peer can be named before its pod starts. No root, no /etc/hosts: the names
 * are rewritten to these addresses in the processes' env and args ({@link Rewriter}).
 */
final class HostTable {

  /** 127.1.0.1 and up: 127.0.x.y is left to what listens on this machine already. */
  private static final int FIRST = 1 << 16;
  /** Starts below 127.240.0.0, so that a million pods of one run stay under 127.255.0.0. */
  private static final int LAST_START = 240 << 16;

  private final Map<String, String> addresses = new ConcurrentHashMap<>();
  private final AtomicInteger next;

  /**
   * Starts at a random address of 127/8: two {@code local}s on one machine (or a CI build beside a developer's)
   * would otherwise give their pods the same addresses, and a server that binds its pod's address would meet the
   * other {@code local}'s (ports bound on every address are {@link PortTable}'s).
   */
  HostTable() {
    this(ThreadLocalRandom.current().nextInt(FIRST, LAST_START));
  }

  /** Starts at the address {@code 127.<first as three bytes>}. */
  HostTable(int first) {
    this.next = new AtomicInteger(first);
  }

  /** The address of {@code hostname.subdomain} in {@code namespace}. */
  String addressOf(String namespace, String hostname, String subdomain) {
    String key = namespace + "/" + hostname + (subdomain == null ? "" : "." + subdomain);
    return addresses.computeIfAbsent(key, k -> {
      int n = next.getAndIncrement();
      if ((n & 0xff) == 0 || (n & 0xff) == 255) {
        n = next.getAndAdd(2) + 1;
      }
      return "127." + ((n >> 16) & 0xff) + "." + ((n >> 8) & 0xff) + "." + (n & 0xff);
    });
  }
}
