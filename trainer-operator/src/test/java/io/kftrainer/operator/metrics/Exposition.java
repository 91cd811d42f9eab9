package io.kftrainer.operator.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A scrape in Prometheus' text format, read into its families: their types and samples' labels. */
public final class Exposition {

  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final List<String> SUFFIXES = List.of("_bucket", "_count", "_sum", "_created");

  /** One sample: its name (a histogram's with its suffix), labels and value. */
  public record Sample(String name, Map<String, String> labels, double value) {
  }

  /** A family: its {@code # TYPE} and samples. */
  public record Family(String name, String type, List<Sample> samples) {

    /** The label names of each sample, {@code le} and {@code quantile} aside. */
    public Set<Set<String>> labelNames() {
      Set<Set<String>> sets = new TreeSet<>(Comparator.comparing(Object::toString));
      for (Sample sample : samples) {
        Set<String> names = new TreeSet<>(sample.labels().keySet());
        names.remove("le");
        names.remove("quantile");
        sets.add(names);
      }
      return sets;
    }

    /** The values label {@code label} takes in this family's samples. */
    public Set<String> values(String label) {
      Set<String> values = new TreeSet<>();
      samples.stream().map(sample -> sample.labels().get(label)).filter(v -> v != null).forEach(values::add);
      return values;
    }

    /** The upper bounds of the buckets of a histogram, {@code +Inf} aside, in order. */
    public List<Double> buckets() {
      return samples.stream().filter(s -> s.name().endsWith("_bucket")).map(s -> s.labels().get("le"))
          .filter(le -> !"+Inf".equals(le)).map(Double::valueOf).distinct().sorted().toList();
    }

    /** The sum of the samples named {@code sampleName} whose labels include {@code match}. */
    public double sum(String sampleName, Map<String, String> match) {
      return samples.stream().filter(s -> s.name().equals(sampleName))
          .filter(s -> s.labels().entrySet().containsAll(match.entrySet())).mapToDouble(Sample::value).sum();
    }
  }

  private final Map<String, Family> families;

  private Exposition(Map<String, Family> families) {
    this.families = families;
  }

  public static Exposition parse(String text) {
    Map<String, Family> families = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] parts = line.split(" ");
        families.put(parts[2], new Family(parts[2], parts[3], new ArrayList<>()));
      } else if (!line.isBlank() && !line.startsWith("#")) {
        int brace = line.indexOf('{');
        int space = line.lastIndexOf(' ');
        String name = brace >= 0 ? line.substring(0, brace) : line.substring(0, space);
        Map<String, String> labels = new TreeMap<>();
        if (brace >= 0) {
          Matcher matcher = LABEL.matcher(line.substring(brace, line.lastIndexOf('}') + 1));
          while (matcher.find()) {
            labels.put(matcher.group(1), matcher.group(2));
          }
        }
        Family family = familyOf(families, name);
        if (family != null) {
          family.samples().add(new Sample(name, labels, Double.parseDouble(line.substring(space + 1))));
        }
      }
    }
    return new Exposition(families);
  }

  private static Family familyOf(Map<String, Family> families, String sampleName) {
    Family family = families.get(sampleName);
    if (family != null) {
      return family;
    }
    for (String suffix : SUFFIXES) {
      if (sampleName.endsWith(suffix)) {
        Family histogram = families.get(sampleName.substring(0, sampleName.length() - suffix.length()));
        if (histogram != null) {
          return histogram;
        }
      }
    }
    return null;
  }

  public Map<String, Family> families() {
    return families;
  }

  public Family family(String name) {
    Family family = families.get(name);
    if (family == null) {
      throw new AssertionError("no family " + name + " in the exposition");
    }
    return family;
  }
}
