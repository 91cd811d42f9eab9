package io.kftrainer.lab.differential;

import java.util.ArrayList;
import java.util.List;

/** Every case of the suite, in the order they run and the table lists them. */
final class Cases {

  private final List<Case> all = new ArrayList<>();

  private Cases() {
  }

  static List<Case> all() {
    Cases cases = new Cases();
    KubectlCases.add(cases);
    Fabric8Cases.add(cases);
    PythonCases.add(cases);
    return List.copyOf(cases.all);
  }

  void add(String client, String name, Case.Step step) {
    Case c = new Case(client, name, all.size() + 1, step);
    if (all.stream().anyMatch(other -> other.key().equals(c.key()))) {
      throw new IllegalArgumentException("two cases named " + c.key());
    }
    all.add(c);
  }
}
