package io.kftrainer.api.v1alpha1;

import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kftrainer.api.crd.SchemaPatch;

/**
 * A namespaced training runtime: TrainJobs of the same namespace may reference it. It has no status.
 */
@Group(TrainerConstants.GROUP)
@Version(TrainerConstants.VERSION)
@Plural("trainingruntimes")
// As upstream: an empty spec is rejected (set here, a minProperties on the spec type would be overwritten by the
// generator) and there is no status property (the generator adds an empty one for a Void status).
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {"properties": {"spec": {"minProperties": 1}, "status": null}}""")
public class TrainingRuntime extends CustomResource<TrainingRuntimeSpec, Void> implements Namespaced {
}
