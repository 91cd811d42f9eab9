package io.kftrainer.lab.differential;

import java.util.Locale;

/**
 * One client interaction, run the same way on each {@link Side} in the namespace {@link #namespace()} (created on
 * both before the cases run), returning what the client saw.
 *
 * @param client the client: {@code kubectl}, {@code fabric8} or {@code python}
 * @param name   what the case does, unique per client
 * @param index  the case's place in the suite, which names its namespace
 * @param step   the interaction
 */
record Case(String client, String name, int index, Step step) {

  /** The interaction of a case with one server. */
  @FunctionalInterface
  interface Step {
    Observation run(Side side, String namespace) throws Exception;
  }

  /** {@code d<index>-<the name's words>}: a DNS label, the same on both servers. */
  String namespace() {
    String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    String namespace = "d" + index + "-" + slug;
    return namespace.length() <= 40 ? namespace : namespace.substring(0, 40).replaceAll("-$", "");
  }

  String key() {
    return client + " | " + name;
  }
}
