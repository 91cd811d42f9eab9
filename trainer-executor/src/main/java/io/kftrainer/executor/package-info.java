/**
 * The controllers a cluster would run for a JobSet, played on this machine: the JobSet controller, the Job
 * controller and a kubelet that runs pods as process groups. They see the API server only through a fabric8
 * {@code KubernetesClient}, as real controllers do.
 */
package io.kftrainer.executor;
