package io.kftrainer.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.api.TrainJobDefaults;
import io.kftrainer.runtime.TrainJobValidator;
import java.util.Objects;

/**
 * {@code validator.trainjob.trainer.kubeflow.org}: TrainJobs on create and update, as upstream's TrainJob webhook.
 * The runtime must be of a supported kind ("unsupported runtime") and exist ("specified trainingRuntime must be
 * created before the TrainJob is created"), a deprecated ClusterTrainingRuntime adds a warning, then every plugin's
 * {@code CustomValidation} runs, on update with the stored TrainJob as the old object ({@link TrainJobValidator}).
 * Both objects get the CRD defaults first, as the API server would have set them. Other operations are allowed.
 */
public final class TrainJobValidatingWebhook implements AdmissionHandler {

  private final TrainJobValidator validator;
  private final ObjectLookup cluster;
  private final RequestObjects objects;

  /**
   * @param validator resolves runtimes (the operator's runtime informer caches) and runs the plugins
   * @param cluster what the plugins may look up
   */
  public TrainJobValidatingWebhook(TrainJobValidator validator, ObjectLookup cluster,
      KubernetesSerialization serialization) {
    this.validator = Objects.requireNonNull(validator, "validator");
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.objects = new RequestObjects(serialization);
  }

  @Override
  public AdmissionResponse admit(AdmissionRequest request) {
    String operation = request.getOperation();
    if (!RequestObjects.CREATE.equals(operation) && !RequestObjects.UPDATE.equals(operation)) {
      return AdmissionResponses.allowed();
    }
    TrainJob trainJob = TrainJobDefaults.defaulted(objects.object(request, TrainJob.class));
    TrainJob stored = RequestObjects.UPDATE.equals(operation) ? objects.oldObject(request, TrainJob.class) : null;
    TrainJob oldTrainJob = stored == null ? null : TrainJobDefaults.defaulted(stored);
    return AdmissionResponses.of(validator.validate(oldTrainJob, trainJob, cluster), TrainerConstants.GROUP,
        TrainerConstants.TRAINJOB_KIND, RequestObjects.name(trainJob, request));
  }
}
