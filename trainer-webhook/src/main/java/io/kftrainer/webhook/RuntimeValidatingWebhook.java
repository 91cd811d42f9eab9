package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainingRuntimeSpec;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.api.CrdDefaults;
import io.kftrainer.runtime.TrainJobValidator;
import io.kftrainer.framework.runner.MLPolicyPlugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code validator.trainingruntime.trainer.kubeflow.org} and
 * {@code validator.clustertrainingruntime.trainer.kubeflow.org}, as upstream's runtime webhooks: the
 * {@link ReplicatedJobRules}; and, not upstream, the plugin of the ML policy must be loaded
 * ({@link MLPolicyPlugins}). Upstream checks a TrainingRuntime on create only (an update is allowed as it is) and a
 * ClusterTrainingRuntime on create and update; creating a ClusterTrainingRuntime labelled
 * {@code trainer.kubeflow.org/support: deprecated} also gives a warning. The object gets its CRD defaults first.
 */
public final class RuntimeValidatingWebhook implements AdmissionHandler {

  private final Class<? extends CustomResource<TrainingRuntimeSpec, ?>> type;
  private final String kind;
  private final boolean validatesUpdate;
  private final RequestObjects objects;
  private final MLPolicyPlugins policyPlugins;

  private RuntimeValidatingWebhook(Class<? extends CustomResource<TrainingRuntimeSpec, ?>> type, String kind,
      boolean validatesUpdate, KubernetesSerialization serialization, MLPolicyPlugins policyPlugins) {
    this.type = type;
    this.kind = kind;
    this.validatesUpdate = validatesUpdate;
    this.objects = new RequestObjects(serialization);
    this.policyPlugins = policyPlugins;
  }

  public static RuntimeValidatingWebhook trainingRuntime(KubernetesSerialization serialization,
      MLPolicyPlugins policyPlugins) {
    return new RuntimeValidatingWebhook(TrainingRuntime.class, TrainerConstants.TRAINING_RUNTIME_KIND, false,
        serialization, policyPlugins);
  }

  public static RuntimeValidatingWebhook clusterTrainingRuntime(KubernetesSerialization serialization,
      MLPolicyPlugins policyPlugins) {
    return new RuntimeValidatingWebhook(ClusterTrainingRuntime.class, TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND,
        true, serialization, policyPlugins);
  }

  @Override
  public AdmissionResponse admit(AdmissionRequest request) {
    boolean create = RequestObjects.CREATE.equals(request.getOperation());
    boolean update = RequestObjects.UPDATE.equals(request.getOperation());
    if (!create && !(update && validatesUpdate)) {
      return AdmissionResponses.allowed();
    }
    CustomResource<TrainingRuntimeSpec, ?> runtime = objects.object(request, type);
    CrdDefaults.applyTo(runtime);
    List<String> warnings = create && isClusterTrainingRuntime() ? deprecationWarning(runtime) : List.of();
    List<FieldError> errors = new ArrayList<>(ReplicatedJobRules.validate(runtime.getSpec()));
    errors.addAll(policyPlugins.validateRuntime(runtime.getSpec()));
    ValidationResult result = new ValidationResult(errors, warnings);
    return AdmissionResponses.of(result, TrainerConstants.GROUP, kind, RequestObjects.name(runtime, request));
  }

  private boolean isClusterTrainingRuntime() {
    return TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND.equals(kind);
  }

  /** Upstream's warning on creating a deprecated ClusterTrainingRuntime. */
  private static List<String> deprecationWarning(CustomResource<TrainingRuntimeSpec, ?> runtime) {
    Map<String, String> labels = runtime.getMetadata().getLabels();
    if (labels == null || !TrainerConstants.SUPPORT_DEPRECATED.equals(labels.get(TrainerConstants.LABEL_SUPPORT))) {
      return List.of();
    }
    return List.of("ClusterTrainingRuntime \"" + runtime.getMetadata().getName() + "\" is deprecated and will be "
        + "removed in a future release of Kubeflow Trainer. See runtime deprecation policy: "
        + TrainJobValidator.RUNTIME_DEPRECATION_POLICY_URL);
  }
}
