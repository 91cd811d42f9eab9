package com.example.trainer.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.loader.PluginConfiguration;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.TestPipeline;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TeamLabelValidationTest {

  private static final RuntimeSource RUNTIME = Fixtures.runtime(Fixtures.resource("runtime.yaml"));
  private static final TestPipeline PIPELINE = TestPipeline.of(new TeamLabelValidation());
  private static final String DETAIL = "namespace team-a requires a team label on TrainJobs";
  private static final FieldError MISSING_TEAM =
      FieldError.required(FieldPath.of("metadata", "labels").key("team"), DETAIL);

  static Stream<Arguments> creates() {
    return Stream.of(
        arguments("a TrainJob without a team in a namespace that requires one is rejected",
            namespace("team-a", TeamLabelValidation.NAMESPACE_LABEL, "true"), null, List.of(MISSING_TEAM)),
        arguments("a TrainJob with a team in a namespace that requires one is valid",
            namespace("team-a", TeamLabelValidation.NAMESPACE_LABEL, "true"), "vision", List.of()),
        arguments("an empty team label counts as no team",
            namespace("team-a", TeamLabelValidation.NAMESPACE_LABEL, "true"), "", List.of(MISSING_TEAM)),
        arguments("any value of the namespace label turns the rule on",
            namespace("team-a", TeamLabelValidation.NAMESPACE_LABEL, ""), null, List.of(MISSING_TEAM)),
        arguments("a TrainJob without a team in a namespace without the label is valid",
            namespace("team-a", "example.com/owner", "platform"), null, List.of()),
        arguments("a namespace the cluster view does not hold requires nothing",
            namespace("team-b", TeamLabelValidation.NAMESPACE_LABEL, "true"), null, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("creates")
  void create(String name, Namespace namespace, String team, List<FieldError> expected) {
    ValidationResult result = PIPELINE.withCluster(namespace).validate(RUNTIME, trainJob(team));

    assertThat(result.errors()).containsExactlyElementsOf(expected);
    assertThat(result.warnings()).isEmpty();
  }

  static Stream<Arguments> updates() {
    return Stream.of(
        arguments("an update of a TrainJob that never had a team is allowed with a warning",
            null, null, List.of(), List.of(DETAIL)),
        arguments("an update that removes the team is rejected",
            "vision", null, List.of(MISSING_TEAM), List.of()),
        arguments("an update that keeps the team is valid",
            "vision", "vision", List.of(), List.of()),
        arguments("an update that adds a team is valid",
            null, "vision", List.of(), List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("updates")
  void update(String name, String oldTeam, String newTeam, List<FieldError> errors, List<String> warnings) {
    ValidationResult result = PIPELINE.withCluster(namespace("team-a", TeamLabelValidation.NAMESPACE_LABEL, "true"))
        .validateUpdate(RUNTIME, trainJob(oldTeam), trainJob(newTeam));

    assertThat(result.errors()).containsExactlyElementsOf(errors);
    assertThat(result.warnings()).containsExactlyElementsOf(warnings);
  }

  @Test
  void theErrorNamesTheLabelAsKubernetesPrintsFieldPaths() {
    assertThat(MISSING_TEAM.field().value()).isEqualTo("metadata.labels[team]");
    assertThat(MISSING_TEAM.type()).isEqualTo(FieldError.Type.REQUIRED);
    assertThat(MISSING_TEAM.message()).isEqualTo("Required value: " + DETAIL);
  }

  @Test
  void theAdministratorChoosesTheNamespaceLabelInThePluginsSection() {
    TeamLabelValidation plugin = new TeamLabelValidation();
    PluginConfiguration.parse("example-team-label:\n  namespaceLabel: example.com/strict\n", "test")
        .apply(List.of(plugin));

    ValidationResult byNewLabel = TestPipeline.of(plugin).withCluster(namespace("team-a", "example.com/strict", "y"))
        .validate(RUNTIME, trainJob(null));
    ValidationResult byDefaultLabel = TestPipeline.of(plugin)
        .withCluster(namespace("team-a", TeamLabelValidation.NAMESPACE_LABEL, "true"))
        .validate(RUNTIME, trainJob(null));

    assertThat(byNewLabel.errors()).containsExactly(MISSING_TEAM);
    assertThat(byDefaultLabel.errors()).isEmpty();
  }

  @Test
  void everyNamespaceRequiresATeamEvenOneTheClusterViewDoesNotHold() {
    TeamLabelValidation plugin = new TeamLabelValidation();
    plugin.configure(new TeamLabelRule(null, true));

    ValidationResult result = TestPipeline.of(plugin).validate(RUNTIME, trainJob(null));

    assertThat(result.errors()).containsExactly(FieldError.required(FieldPath.of("metadata", "labels").key("team"),
        "every namespace requires a team label on TrainJobs"));
  }

  @Test
  void anEmptyNamespaceLabelStopsStartUpNamingTheField() {
    assertThatThrownBy(() -> PluginConfiguration.parse("example-team-label: {namespaceLabel: ' '}", "test")
        .apply(List.of(new TeamLabelValidation())))
        .hasMessageContaining("example-team-label: namespaceLabel: must not be empty");
  }

  @Test
  void namespacesAreDeclaredSoThatTheOperatorCachesThem() {
    assertThat(new TeamLabelValidation().watches()).containsExactly(Watch.referenced(Namespace.class));
  }

  private static TrainJob trainJob(String team) {
    TrainJob trainJob = Fixtures.trainJob(Fixtures.resource("trainjob.yaml"));
    Map<String, String> labels = new HashMap<>(trainJob.getMetadata().getLabels());
    labels.remove(TeamLabel.KEY);
    if (team != null) {
      labels.put(TeamLabel.KEY, team);
    }
    trainJob.getMetadata().setLabels(labels);
    return trainJob;
  }

  private static Namespace namespace(String name, String labelKey, String labelValue) {
    return new NamespaceBuilder()
        .withNewMetadata().withName(name).addToLabels(labelKey, labelValue).endMetadata()
        .build();
  }
}
