package io.kftrainer.api.v1alpha1;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A namespaced training runtime: TrainJobs of the same namespace may reference it. It has no status.
 */
@Group(TrainerConstants.GROUP)
@Version(TrainerConstants.VERSION)
@Plural("trainingruntimes")
public class TrainingRuntime extends CustomResource<TrainingRuntimeSpec, Void> implements Namespaced {
}
