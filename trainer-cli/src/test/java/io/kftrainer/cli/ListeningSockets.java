package io.kftrainer.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The TCP sockets this process listens on, as {@code ss -ltnp} shows them: the listening entries of
 * {@code /proc/net/tcp} and {@code tcp6} whose inode is one of this process's file descriptors. Linux only.
 */
final class ListeningSockets {

  private static final Path FDS = Path.of("/proc/self/fd");
  private static final Pattern SOCKET = Pattern.compile("socket:\\[(\\d+)]");
  private static final String LISTEN = "0A";

  private ListeningSockets() {
  }

  static boolean available() {
    return Files.isDirectory(FDS) && Files.isReadable(Path.of("/proc/self/net/tcp"));
  }

  static Set<InetSocketAddress> ofThisProcess() {
    Set<String> inodes = socketInodes();
    Set<InetSocketAddress> listening = new LinkedHashSet<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc/self/net", table);
      if (!Files.isReadable(file)) {
        continue;
      }
      try (Stream<String> lines = Files.lines(file)) {
        lines.skip(1).map(String::trim).map(line -> line.split("\\s+"))
            .filter(fields -> fields.length > 9 && LISTEN.equals(fields[3]) && inodes.contains(fields[9]))
            .forEach(fields -> listening.add(address(fields[1])));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return listening;
  }

  private static Set<String> socketInodes() {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(FDS)) {
      fds.forEach(fd -> {
        try {
          Matcher socket = SOCKET.matcher(Files.readSymbolicLink(fd).toString());
          if (socket.matches()) {
            inodes.add(socket.group(1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return inodes;
  }

  /** {@code 0100007F:1F90} (IPv4) or 32 hex digits (IPv6), each 32-bit word in host (little-endian) order. */
  private static InetSocketAddress address(String hex) {
    String[] parts = hex.split(":");
    String ip = parts[0];
    byte[] bytes = new byte[ip.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        int at = word * 8 + (3 - i) * 2;
        bytes[word * 4 + i] = (byte) Integer.parseInt(ip.substring(at, at + 2), 16);
      }
    }
    try {
      return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(hex, e);
    }
  }
}
