package com.example.trainer.team;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.Namespace;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import java.util.List;

/**
 * Rejects TrainJobs without a {@code team} label in namespaces that ask for one: those labelled
 * {@value #NAMESPACE_LABEL} (any value).
 *
 * <p>The namespace is read from the operator's cache through {@link ValidationContext#cluster()}, which holds
 * Namespaces only because {@link #watches()} declares them. A namespace the cache does not hold requires nothing,
 * so an offline {@code render} (whose cluster view is empty) never rejects.
 *
 * <p>On update the rule ratchets, as Kubernetes does for new validations: a TrainJob that already had no team keeps
 * working (for example to be suspended) and gets a warning; removing the label is rejected.
 */
@AutoService(Plugin.class)
public final class TeamLabelValidation implements CustomValidation, WatchExtension {

  public static final String NAME = "example-team-label";

  /** The namespace label that turns the rule on. */
  public static final String NAMESPACE_LABEL = "trainer.example.com/require-team";

  @Override
  public String name() {
    return NAME;
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
    String detail = "namespace " + namespace + " requires a team label on TrainJobs";
    if (context.oldTrainJob().filter(old -> TeamLabel.of(old).isEmpty()).isPresent()) {
      return ValidationResult.warning(detail);
    }
    return ValidationResult.of(FieldError.required(FieldPath.of("metadata", "labels").key(TeamLabel.KEY), detail));
  }

  private static boolean requiresTeam(ValidationContext context, String namespace) {
    return context.cluster().get(Namespace.class, null, namespace)
        .map(ns -> ns.getMetadata().getLabels())
        .map(labels -> labels.containsKey(NAMESPACE_LABEL))
        .orElse(false);
  }
}
