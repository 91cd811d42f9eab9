package io.kftrainer.api.v1alpha1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A cluster-scoped training runtime: TrainJobs of any namespace may reference it. It has no status.
 */
@Group(TrainerConstants.GROUP)
@Version(TrainerConstants.VERSION)
@Plural("clustertrainingruntimes")
public class ClusterTrainingRuntime extends CustomResource<TrainingRuntimeSpec, Void> {
}
