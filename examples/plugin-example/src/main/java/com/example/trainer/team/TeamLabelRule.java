package com.example.trainer.team;

/**
 * The administrator's settings of {@link TeamLabelValidation}, its section {@code example-team-label} of the
 * operator's {@code --plugin-config} file:
 *
 * <pre>
 * example-team-label:
 *   namespaceLabel: trainer.example.com/require-team   # namespaces with this label require a team
 *   everyNamespace: false                              # true: every namespace requires one
 * </pre>
 *
 * @param namespaceLabel the namespace label (any value) that turns the rule on
 * @param everyNamespace whether every namespace requires a team, labelled or not
 */
public record TeamLabelRule(String namespaceLabel, Boolean everyNamespace) {

  public static final String DEFAULT_NAMESPACE_LABEL = "trainer.example.com/require-team";

  public TeamLabelRule {
    namespaceLabel = namespaceLabel == null ? DEFAULT_NAMESPACE_LABEL : namespaceLabel;
    everyNamespace = everyNamespace != null && everyNamespace;
    if (namespaceLabel.isBlank()) {
      throw new IllegalArgumentException("namespaceLabel: must not be empty");
    }
  }

  /** The defaults: namespaces labelled {@value #DEFAULT_NAMESPACE_LABEL} require a team. */
  public static TeamLabelRule defaults() {
    return new TeamLabelRule(null, null);
  }
}
