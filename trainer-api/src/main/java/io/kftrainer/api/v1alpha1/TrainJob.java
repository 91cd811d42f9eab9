package io.kftrainer.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kftrainer.api.crd.SchemaPatch;

/**
 * A training job: a reference to a training runtime plus the overrides of this run. The operator turns it into a
 * JobSet built from the runtime's template.
 *
 * <p>The name rules are CEL rules at the top level of the schema, as upstream does, because {@code metadata} of a
 * custom resource cannot carry a schema of its own.
 */
@Group(TrainerConstants.GROUP)
@Version(TrainerConstants.VERSION)
@Plural("trainjobs")
@AdditionalPrinterColumn(name = "State", jsonPath = ".status.conditions[-1:].type",
    type = AdditionalPrinterColumn.Type.STRING)
// Not upstream's (an extra column is wire-compatible): the JobSet restarts the operator reported, from its annotation
// kftrainer.io/restarts (upstream's API has no field for them).
@AdditionalPrinterColumn(name = "Restarts", jsonPath = ".metadata.annotations.kftrainer\\.io/restarts",
    type = AdditionalPrinterColumn.Type.STRING)
// Not upstream's (an extra column is wire-compatible): what the training code last reported, in percent.
@AdditionalPrinterColumn(name = "Progress", jsonPath = ".status.trainerStatus.progressPercentage",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(value = "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    message = "metadata.name must match RFC 1035 DNS label format")
@ValidationRule(value = "size(self.metadata.name) <= 63",
    message = "metadata.name must be no more than 63 characters")
// An empty status is rejected, as upstream. Set here: a property-level minProperties would be overwritten.
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {"properties": {"status": {"minProperties": 1}}}""")
public class TrainJob extends CustomResource<TrainJobSpec, TrainJobStatus> implements Namespaced {
}
