package io.kftrainer.deploy.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the repository's Dockerfile says its final stage (after the last {@code FROM}) sets: {@code USER},
 * {@code EXPOSE}, {@code ENTRYPOINT} and {@code CMD} (exec form, JSON), {@code WORKDIR}, {@code ENV}
 * ({@code KEY="value"} or {@code KEY=value}). No Dockerfile parser is on Maven Central: this reads the few
 * instructions the image tests compare, joined over line continuations, and refuses the forms it does not read
 * (shell-form ENTRYPOINT/CMD) rather than misread them.
 */
record Dockerfile(String user, Set<String> exposedPorts, List<String> entrypoint, List<String> cmd,
    String workingDir, Map<String, String> env, List<String> runs) {

  private static final Pattern ENV_ENTRY = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"((?:[^\"\\\\]|\\\\.)*)\"|\\S*)");

  static Dockerfile read(Path file) throws IOException {
    List<String> instructions = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : Files.readAllLines(file)) {
      String trimmed = line.trim();
      if (current.isEmpty() && (trimmed.isEmpty() || trimmed.startsWith("#"))) {
        continue;
      }
      if (!current.isEmpty() && trimmed.startsWith("#")) {
        continue; // a comment inside a continued instruction
      }
      if (trimmed.endsWith("\\")) {
        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
      } else {
        current.append(trimmed);
        instructions.add(current.toString());
        current.setLength(0);
      }
    }
    int lastFrom = 0;
    for (int i = 0; i < instructions.size(); i++) {
      if (keyword(instructions.get(i)).equals("FROM")) {
        lastFrom = i;
      }
    }
    String user = "";
    Set<String> ports = new LinkedHashSet<>();
    List<String> entrypoint = List.of();
    List<String> cmd = List.of();
    String workingDir = "";
    Map<String, String> env = new LinkedHashMap<>();
    List<String> runs = new ArrayList<>();
    for (String instruction : instructions.subList(lastFrom, instructions.size())) {
      String argument = instruction.substring(keyword(instruction).length()).trim();
      switch (keyword(instruction)) {
        case "USER" -> user = argument;
        case "EXPOSE" -> {
          for (String port : argument.split("\\s+")) {
            ports.add(port.contains("/") ? port : port + "/tcp");
          }
        }
        case "ENTRYPOINT" -> entrypoint = execForm(instruction, argument);
        case "CMD" -> cmd = execForm(instruction, argument);
        case "WORKDIR" -> workingDir = argument;
        case "ENV" -> {
          Matcher m = ENV_ENTRY.matcher(argument);
          while (m.find()) {
            env.put(m.group(1), m.group(3) != null ? m.group(3).replace("\\\"", "\"") : m.group(2));
          }
        }
        case "RUN" -> runs.add(argument);
        default -> {
          // FROM, LABEL, COPY, ...: not compared
        }
      }
    }
    return new Dockerfile(user, ports, entrypoint, cmd, workingDir, env, runs);
  }

  private static String keyword(String instruction) {
    int space = instruction.indexOf(' ');
    return (space < 0 ? instruction : instruction.substring(0, space)).toUpperCase();
  }

  private static List<String> execForm(String instruction, String argument) {
    if (!argument.startsWith("[")) {
      throw new IllegalArgumentException("only the exec form (JSON) is read: " + instruction);
    }
    try {
      List<String> values = new ArrayList<>();
      for (JsonNode value : new ObjectMapper().readTree(argument)) {
        values.add(value.asText());
      }
      return values;
    } catch (IOException e) {
      throw new IllegalArgumentException("not a JSON array: " + instruction, e);
    }
  }
}
