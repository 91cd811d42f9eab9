/**
 * A small hand-written model of {@code jobset.x-k8s.io/v1alpha2} (JobSet v0.12.0), the child workload of a
 * TrainJob. It follows the conventions of {@link io.kftrainer.api.v1alpha1}; Job templates use fabric8's
 * {@code batch/v1} types. The CRD generated from it serves tests and the embedded API server only.
 */
package io.kftrainer.api.jobset.v1alpha2;
