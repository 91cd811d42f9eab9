package io.kftrainer.executor;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What makes a pod's command run on this machine as it would in its pod, applied to env values, command, args and
 * workingDir (after {@code $(VAR)} expansion):
 * <ol>
 *   <li>mount paths become the volumes' directories in the run directory ({@code /workspace/data} becomes
 *       {@code <run dir>/<ns>/pvc/initializer/data}), at path boundaries, longest first;</li>
 *   <li>pod DNS names of the pod's subdomain, {@code <hostname>.<subdomain>} where the hostname ends in
 *       {@code -<index>} (as Indexed Jobs name them), with or without
 *       {@code .<namespace>[.svc[.cluster.local]]}, become their loopback address ({@link HostTable});</li>
 *   <li>a remapped port ({@link PortTable}) is replaced after such an address ({@code host:29500}) and where a
 *       value is the port alone ({@code PET_MASTER_PORT=29500}).</li>
 * </ol>
 */
final class Rewriter {

  private final List<Map.Entry<String, String>> mounts;
  private final Pattern hostPattern;
  private final String namespace;
  private final String subdomain;
  private final HostTable hosts;
  private final Map<Integer, Integer> ports;

  Rewriter(Map<String, String> mounts, String namespace, String subdomain, HostTable hosts,
      Map<Integer, Integer> ports) {
    this.mounts = mounts.entrySet().stream()
        .sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed())
        .map(e -> Map.entry(e.getKey(), e.getValue())).toList();
    this.namespace = namespace;
    this.subdomain = subdomain;
    this.hosts = hosts;
    this.ports = ports;
    // pod hostnames of Indexed Jobs end in "-<index>": code such as "comm.allreduce" is left alone
    this.hostPattern = subdomain == null ? null : Pattern.compile("(?<![-\\w.])([a-z0-9]([-a-z0-9]*)-\\d+)\\."
        + Pattern.quote(subdomain) + "(\\." + Pattern.quote(namespace) + "(\\.svc(\\.cluster\\.local)?)?)?"
        + "(?![-a-z0-9.]*[a-z0-9])(:(\\d+))?");
  }

  String rewrite(String value) {
    if (value == null) {
      return null;
    }
    String result = value;
    for (Map.Entry<String, String> mount : mounts) {
      result = replacePath(result, mount.getKey(), mount.getValue());
    }
    if (hostPattern != null) {
      Matcher m = hostPattern.matcher(result);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String address = hosts.addressOf(namespace, m.group(1), subdomain);
        String port = m.group(7);
        String replacement = port == null ? address : address + ":" + mapPort(port);
        m.appendReplacement(out, Matcher.quoteReplacement(replacement));
      }
      m.appendTail(out);
      result = out.toString();
    }
    if (result.matches("\\d{1,5}")) {
      result = mapPort(result);
    }
    return result;
  }

  List<String> rewrite(List<String> values) {
    return values.stream().map(this::rewrite).toList();
  }

  private String mapPort(String port) {
    Integer mapped = ports.get(Integer.parseInt(port));
    return mapped == null ? port : mapped.toString();
  }

  private static String replacePath(String value, String mountPath, String directory) {
    String path = mountPath.endsWith("/") && mountPath.length() > 1
        ? mountPath.substring(0, mountPath.length() - 1) : mountPath;
    if (path.equals("/") || !value.contains(path)) {
      return value;
    }
    Pattern p = Pattern.compile("(?<![\\w./-])" + Pattern.quote(path) + "(?=/|$|[^\\w.-])");
    return p.matcher(value).replaceAll(Matcher.quoteReplacement(directory));
  }
}
