/**
 * The {@code trainer.kubeflow.org/v1alpha1} API: {@link io.kftrainer.api.v1alpha1.TrainJob},
 * {@link io.kftrainer.api.v1alpha1.TrainingRuntime} and {@link io.kftrainer.api.v1alpha1.ClusterTrainingRuntime},
 * wire-compatible with upstream Kubeflow Trainer v2.
 *
 * <p>Conventions shared by every class here:
 * <ul>
 *   <li>Plain mutable Jackson POJOs (fabric8 and the Java Operator SDK set fields on them), with {@code with*}
 *       fluent setters and value-based {@code equals}/{@code hashCode}/{@code toString}. Deep copies:
 *       {@link io.kftrainer.api.Copies#deepCopy(Object)}.</li>
 *   <li>Every field is nullable and absent fields stay absent ({@code NON_NULL}); collections are {@code null}
 *       until set. CRD defaults are applied by the API server, not by these classes.</li>
 *   <li>Unknown fields are ignored when reading, as Go clients do, so a newer upstream field does not break an
 *       informer.</li>
 *   <li>Timestamps are kept as the RFC 3339 strings found on the wire (as fabric8 does for its own types).</li>
 *   <li>Validation lives in the CRD: fabric8 generator annotations ({@code @Required}, {@code @Default},
 *       {@code @Min}, {@code @ValidationRule} ...) and {@link io.kftrainer.api.crd.SchemaPatch} for what they
 *       cannot say (list-map keys, enums, formats).</li>
 * </ul>
 */
package io.kftrainer.api.v1alpha1;
