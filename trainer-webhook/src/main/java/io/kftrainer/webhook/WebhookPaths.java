package io.kftrainer.webhook;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.runner.MLPolicyPlugins;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.runtime.RuntimeResolver;
import io.kftrainer.runtime.TrainJobValidator;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The operator's admission webhooks by URL path: the {@code clientConfig.service.path}s of the webhook
 * configurations in {@code manifests/base}, the same paths as upstream.
 */
public final class WebhookPaths {

  public static final String VALIDATE_TRAINJOB = "/validate-trainer-kubeflow-org-v1alpha1-trainjob";
  public static final String MUTATE_TRAINJOB = "/mutate-trainer-kubeflow-org-v1alpha1-trainjob";
  public static final String VALIDATE_TRAINING_RUNTIME = "/validate-trainer-kubeflow-org-v1alpha1-trainingruntime";
  public static final String VALIDATE_CLUSTER_TRAINING_RUNTIME =
      "/validate-trainer-kubeflow-org-v1alpha1-clustertrainingruntime";
  /** The kind each validating webhook validates, by path. */
  public static final Map<String, String> VALIDATED_KINDS = Map.of(
      VALIDATE_TRAINJOB, TrainerConstants.TRAINJOB_KIND,
      VALIDATE_TRAINING_RUNTIME, TrainerConstants.TRAINING_RUNTIME_KIND,
      VALIDATE_CLUSTER_TRAINING_RUNTIME, TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND);

  private WebhookPaths() {
  }

  /**
   * The four webhooks.
   *
   * @param runner the plugins' validations
   * @param runtimes where TrainJobs' runtimes are found (the operator's informer caches)
   * @param cluster what plugins may look up while validating
   * @param clock the defaulter's time
   */
  public static Map<String, AdmissionHandler> handlers(PhaseRunner runner, RuntimeResolver runtimes,
      ObjectLookup cluster, Clock clock, KubernetesSerialization serialization) {
    Map<String, AdmissionHandler> handlers = new LinkedHashMap<>();
    handlers.put(VALIDATE_TRAINJOB, new TrainJobValidatingWebhook(new TrainJobValidator(runtimes, runner), cluster,
        serialization));
    handlers.put(MUTATE_TRAINJOB, new TrainJobDefaultingWebhook(clock, serialization));
    MLPolicyPlugins policyPlugins = new MLPolicyPlugins(runner.plugins());
    handlers.put(VALIDATE_TRAINING_RUNTIME, RuntimeValidatingWebhook.trainingRuntime(serialization, policyPlugins));
    handlers.put(VALIDATE_CLUSTER_TRAINING_RUNTIME,
        RuntimeValidatingWebhook.clusterTrainingRuntime(serialization, policyPlugins));
    return handlers;
  }
}
