package io.kftrainer.deploy.image;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The part of an image's configuration ({@code config} of the OCI/Docker image config) that decides how its
 * container starts: what a kubelet passes to the container runtime.
 *
 * @param entrypoint the executable and its first arguments ({@code ENTRYPOINT})
 * @param cmd the default arguments after it ({@code CMD}), replaced by a pod's {@code args}
 * @param env {@code NAME=value} entries ({@code ENV})
 * @param user {@code uid[:gid]} or a user name of the image's {@code /etc/passwd} ({@code USER})
 * @param workingDir the working directory ({@code WORKDIR})
 * @param exposedPorts {@code port/protocol} ({@code EXPOSE})
 * @param volumes paths declared as volumes ({@code VOLUME})
 * @param labels {@code LABEL}s
 */
public record ImageConfig(List<String> entrypoint, List<String> cmd, List<String> env, String user,
    String workingDir, Set<String> exposedPorts, Set<String> volumes, Map<String, String> labels) {

  public ImageConfig {
    entrypoint = List.copyOf(entrypoint);
    cmd = List.copyOf(cmd);
    env = List.copyOf(env);
    exposedPorts = Set.copyOf(exposedPorts);
    volumes = Set.copyOf(volumes);
    labels = Map.copyOf(labels);
  }

  /** The {@code config} object of an image config JSON. */
  static ImageConfig of(JsonNode config) {
    List<String> entrypoint = strings(config.path("Entrypoint"));
    List<String> cmd = strings(config.path("Cmd"));
    List<String> env = strings(config.path("Env"));
    Set<String> ports = new LinkedHashSet<>();
    config.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
    Set<String> volumes = new LinkedHashSet<>();
    config.path("Volumes").fieldNames().forEachRemaining(volumes::add);
    Map<String, String> labels = new LinkedHashMap<>();
    config.path("Labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    return new ImageConfig(entrypoint, cmd, env, config.path("User").asText(""),
        config.path("WorkingDir").asText(""), ports, volumes, labels);
  }

  /** The value of environment variable {@code name}, if the image sets it. */
  public Optional<String> env(String name) {
    String prefix = name + "=";
    return env.stream().filter(e -> e.startsWith(prefix)).map(e -> e.substring(prefix.length())).findFirst();
  }

  /** The environment as a map, in the image's order. */
  public Map<String, String> envMap() {
    Map<String, String> map = new LinkedHashMap<>();
    for (String entry : env) {
      int equals = entry.indexOf('=');
      map.put(equals < 0 ? entry : entry.substring(0, equals), equals < 0 ? "" : entry.substring(equals + 1));
    }
    return map;
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }
}
