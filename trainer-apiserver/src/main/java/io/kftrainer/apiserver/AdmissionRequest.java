package io.kftrainer.apiserver;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * What an {@link AdmissionHook} is asked to admit: the fields of an {@code admission.k8s.io/v1 AdmissionRequest}
 * that this server knows. Objects are copies: changing them has no effect, return a mutation in the
 * {@link AdmissionResponse} instead.
 *
 * @param uid         a fresh identifier for this review
 * @param operation   {@link Operation#CREATE} or {@link Operation#UPDATE}
 * @param group       API group of the object, empty for the core group
 * @param version     API version of the request
 * @param kind        kind of the object
 * @param resource    resource (plural) of the request path
 * @param subResource subresource of the request path ({@code status}), or null
 * @param namespace   namespace, or null for cluster-scoped objects
 * @param name        object name (may be null on create with {@code generateName})
 * @param object      the object as it would be stored
 * @param oldObject   the stored object for an update, null for a create
 * @param dryRun      whether the request is a dry run
 */
public record AdmissionRequest(String uid, Operation operation, String group, String version, String kind,
    String resource, String subResource, String namespace, String name, GenericKubernetesResource object,
    GenericKubernetesResource oldObject, boolean dryRun) {

  /** The admission operations this server calls hooks for (DELETE and CONNECT are not admitted). */
  public enum Operation {
    CREATE, UPDATE
  }
}
