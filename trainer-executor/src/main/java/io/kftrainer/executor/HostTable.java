package io.kftrainer.executor;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One loopback address per pod DNS name ({@code 127.0.x.y}; Linux routes all of 127/8 to the loopback interface),
 * handed out on first use, so that a peer can be named before its pod starts. No root, no /etc/hosts: the names
 * are rewritten to these addresses in the processes' env and args ({@link Rewriter}).
 */
final class HostTable {

  private final Map<String, String> addresses = new ConcurrentHashMap<>();
  private final AtomicInteger next = new AtomicInteger(256 + 1);

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
