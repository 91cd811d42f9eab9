package io.kftrainer.api.jobset.v1alpha2;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A JobSet ({@code jobset.x-k8s.io/v1alpha2}, JobSet v0.12.0): the child workload of a TrainJob.
 *
 * <p>This hand-written model covers the JobSet API exactly; the CRD generated from it is meant for tests and
 * the embedded API server only. Clusters install the real JobSet CRD with the JobSet controller.
 */
@Group(JobSetConstants.GROUP)
@Version(JobSetConstants.VERSION)
@Plural("jobsets")
@AdditionalPrinterColumn(name = "TerminalState", jsonPath = ".status.terminalState",
    type = AdditionalPrinterColumn.Type.STRING, getDescription = "Final state of JobSet")
@AdditionalPrinterColumn(name = "Restarts", jsonPath = ".status.restarts",
    type = AdditionalPrinterColumn.Type.STRING, getDescription = "Number of restarts")
@AdditionalPrinterColumn(name = "Completed", jsonPath = ".status.conditions[?(@.type==\"Completed\")].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Suspended", jsonPath = ".spec.suspend",
    type = AdditionalPrinterColumn.Type.STRING, getDescription = "JobSet suspended")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE, getDescription = "Time this JobSet was created")
public class JobSet extends CustomResource<JobSetSpec, JobSetStatus> implements Namespaced {
}
