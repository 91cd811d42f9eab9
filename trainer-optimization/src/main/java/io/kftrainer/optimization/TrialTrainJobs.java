package io.kftrainer.optimization;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.kftrainer.api.Copies;
import io.kftrainer.api.v1alpha1.OptimizationConstants;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.ParameterAssignment;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.api.v1alpha1.TrainJobTemplateSpec;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A trial's TrainJob, built from the OptimizationJob's {@code trainJobTemplate}:
 * <ul>
 *   <li>named {@link TrialNames#of}, in the OptimizationJob's namespace, controlled by it (a controller
 *       ownerReference with {@code blockOwnerDeletion}: deleting the OptimizationJob deletes its trials);</li>
 *   <li>the template's labels plus {@value OptimizationConstants#LABEL_OPTIMIZATION_JOB}: the OptimizationJob's
 *       name; the template's annotations plus {@value OptimizationConstants#ANNOTATION_PARAMETERS}: the parameter
 *       values as a JSON list of {@code {name, value}} (KEP-3562's annotation);</li>
 *   <li>the template's spec, {@code suspend} included, with one environment variable per parameter in
 *       {@code spec.trainer.env}: {@code KUBEFLOW_TRAINER_OPT_<NAME>}, the name in upper case (where upstream's
 *       controller under review puts them, so that {@code kubectl get trainjob -o yaml} shows them). A template
 *       variable of the same name is replaced.</li>
 * </ul>
 */
public final class TrialTrainJobs {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TrialTrainJobs() {
  }

  /** The environment variable of parameter {@code name}. */
  public static String envName(String parameterName) {
    return OptimizationConstants.ENV_PARAMETER_PREFIX + parameterName.toUpperCase(Locale.ROOT);
  }

  public static TrainJob build(OptimizationJob job, String name, List<ParameterAssignment> values) {
    TrainJobTemplateSpec template = job.getSpec().getTrainJobTemplate();
    ObjectMeta templateMeta = template == null ? null : template.getMetadata();
    TrainJobSpec spec = template == null || template.getSpec() == null ? new TrainJobSpec()
        : Copies.deepCopy(template.getSpec());

    Map<String, String> labels = new LinkedHashMap<>();
    if (templateMeta != null && templateMeta.getLabels() != null) {
      labels.putAll(templateMeta.getLabels());
    }
    labels.put(OptimizationConstants.LABEL_OPTIMIZATION_JOB, job.getMetadata().getName());
    Map<String, String> annotations = new LinkedHashMap<>();
    if (templateMeta != null && templateMeta.getAnnotations() != null) {
      annotations.putAll(templateMeta.getAnnotations());
    }
    annotations.put(OptimizationConstants.ANNOTATION_PARAMETERS, json(values));

    Trainer trainer = spec.getTrainer() == null ? new Trainer() : spec.getTrainer();
    Set<String> ours = new HashSet<>();
    List<EnvVar> env = new ArrayList<>();
    for (ParameterAssignment value : values) {
      ours.add(envName(value.getName()));
      env.add(new EnvVar(envName(value.getName()), value.getValue(), null));
    }
    List<EnvVar> merged = new ArrayList<>();
    if (trainer.getEnv() != null) {
      trainer.getEnv().stream().filter(e -> !ours.contains(e.getName())).forEach(merged::add);
    }
    merged.addAll(env);
    trainer.setEnv(merged);
    spec.setTrainer(trainer);

    TrainJob trainJob = new TrainJob();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(name);
    metadata.setNamespace(job.getMetadata().getNamespace());
    metadata.setLabels(labels);
    metadata.setAnnotations(annotations);
    metadata.setOwnerReferences(List.of(ownerReference(job)));
    trainJob.setMetadata(metadata);
    trainJob.setSpec(spec);
    return trainJob;
  }

  static OwnerReference ownerReference(OptimizationJob job) {
    return new OwnerReferenceBuilder()
        .withApiVersion(TrainerConstants.API_VERSION)
        .withKind(OptimizationConstants.OPTIMIZATION_JOB_KIND)
        .withName(job.getMetadata().getName())
        .withUid(job.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  /** The value of {@value OptimizationConstants#ANNOTATION_PARAMETERS}: {@code [{"name":"lr","value":"0.01"}]}. */
  public static String json(List<ParameterAssignment> values) {
    try {
      return JSON.writeValueAsString(values);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
