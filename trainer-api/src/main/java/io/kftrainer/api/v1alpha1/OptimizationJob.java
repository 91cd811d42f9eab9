package io.kftrainer.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Hyperparameter optimization (upstream's KEP-3562): trials are TrainJobs built from a template, each with its own
 * parameter values, at most {@code parallelTrials} at once and {@code numTrials} in all; the status keeps every
 * trial (KEP-3744) and the best one.
 *
 * <p>The printer columns are ours (upstream's CRD has none): the last condition, the trials that ended out of
 * {@code numTrials}, and the best objective value; {@code -o wide} adds the objective metric and the best trial.
 */
@Group(TrainerConstants.GROUP)
@Version(TrainerConstants.VERSION)
@Plural(OptimizationConstants.OPTIMIZATION_JOB_PLURAL)
@AdditionalPrinterColumn(name = "State", jsonPath = ".status.conditions[-1:].type",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Trials", jsonPath = ".status.progress",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Best", jsonPath = ".status.result.metrics[0].value",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Metric", jsonPath = ".spec.objectives[0].metric",
    type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Best Trial", jsonPath = ".status.result.trainJobName",
    type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class OptimizationJob extends CustomResource<OptimizationJobSpec, OptimizationJobStatus> implements Namespaced {
}
