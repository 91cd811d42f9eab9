package com.example.trainer.team;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.Namespace;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.Configurable;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import java.util.List;

/**
 * Rejects TrainJobs without a {@code team} label in namespaces that ask for one: by default those labelled
 * {@value TeamLabelRule#DEFAULT_NAMESPACE_LABEL} (any value). The administrator changes the label, or requires a
 * team everywhere, in the plugin's section of {@code --plugin-config} ({@link TeamLabelRule}).
 *
 * <p>The namespace is read from the operator's cache through {@link ValidationContext#cluster()}, which holds
 * Namespaces only because {@link #watches()} declares them. A namespace the cache does not hold requires nothing,
 * so an offline {@code render} (whose cluster view is empty) never rejects.
 *
 * <p>On update the rule ratchets, as Kubernetes does for new validations: a TrainJob that already had no team keeps
 * working (for example to be suspended) and gets a warning; removing the label is rejected.
 */
@AutoService(Plugin.class)
public final class TeamLabelValidation implements CustomValidation, WatchExtension, Configurable<TeamLabelRule> {

  public static final String NAME = "example-team-label";

  /** The namespace label that turns the rule on by default. */
  public static final String NAMESPACE_LABEL = TeamLabelRule.DEFAULT_NAMESPACE_LABEL;

  private volatile TeamLabelRule rule = TeamLabelRule.defaults();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<TeamLabelRule> configType() {
    return TeamLabelRule.class;
  }

  @Override
  public void configure(TeamLabelRule config) {
    this.rule = config;
  }

  @Override
  public List<Watch> watches() {
    return List.of(Watch.referenced(Namespace.class));
  }

  @Override
  public ValidationResult validate(ValidationContext context) {
    TrainJob trainJob = context.trainJob();
    String namespace = trainJob.getMetadata().getNamespace();
    if (TeamLabel.of(trainJob).isPresent() || !requiresTeam(context, namespace)) {
      return ValidationResult.ok();
    }
    String detail = (rule.everyNamespace() ? "every namespace" : "namespace " + namespace)
        + " requires a team label on TrainJobs";
    if (context.oldTrainJob().filter(old -> TeamLabel.of(old).isEmpty()).isPresent()) {
      return ValidationResult.warning(detail);
    }
    return ValidationResult.of(FieldError.required(FieldPath.of("metadata", "labels").key(TeamLabel.KEY), detail));
  }

  private boolean requiresTeam(ValidationContext context, String namespace) {
    TeamLabelRule current = rule;
    if (current.everyNamespace()) {
      return true;
    }
    return context.cluster().get(Namespace.class, null, namespace)
        .map(ns -> ns.getMetadata().getLabels())
        .map(labels -> labels.containsKey(current.namespaceLabel()))
        .orElse(false);
  }
}
