package io.kftrainer.apiserver;

import java.util.Objects;

/**
 * An admission step run by {@link EmbeddedApiServer} on create and update requests (POST, PUT and every PATCH type,
 * server-side apply included) before the object is stored; the stand-in for admission webhooks.
 *
 * <p>Hooks run in two phases like the real admission chain: every {@link Phase#MUTATING} hook first (in registration
 * order, each seeing the previous hooks' mutations), then every {@link Phase#VALIDATING} hook. The first denial stops
 * the request; the client receives the denial's Status. A hook that throws fails the request with 500 (like
 * {@code failurePolicy: Fail}).
 *
 * <p>Hooks run on the server's request thread and must not call back into this server synchronously (the mock
 * server serves requests from one event-loop thread: such a call would wait for itself until it times out).
 */
@FunctionalInterface
public interface AdmissionHook {

  /** Admission phase. Validating hooks must not mutate. */
  enum Phase {
    MUTATING, VALIDATING
  }

  AdmissionResponse admit(AdmissionRequest request);

  /** Whether this hook wants {@code request}; the default is every request. */
  default boolean handles(AdmissionRequest request) {
    return true;
  }

  default Phase phase() {
    return Phase.MUTATING;
  }

  /**
   * A hook for the main resource (not its subresources) of objects of one group and kind, like a webhook rule on
   * {@code resources: [plural]}.
   *
   * @param group API group, empty for core
   * @param kind  kind, e.g. {@code TrainJob}
   */
  static AdmissionHook forKind(String group, String kind, Phase phase, AdmissionHook hook) {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(phase, "phase");
    return new AdmissionHook() {
      @Override
      public AdmissionResponse admit(AdmissionRequest request) {
        return hook.admit(request);
      }

      @Override
      public boolean handles(AdmissionRequest request) {
        return request.subResource() == null && group.equals(request.group()) && kind.equals(request.kind())
            && hook.handles(request);
      }

      @Override
      public Phase phase() {
        return phase;
      }
    };
  }

  /** A validating hook for the main resource of objects of one group and kind. */
  static AdmissionHook validating(String group, String kind, AdmissionHook hook) {
    return forKind(group, kind, Phase.VALIDATING, hook);
  }

  /** A mutating hook for the main resource of objects of one group and kind. */
  static AdmissionHook mutating(String group, String kind, AdmissionHook hook) {
    return forKind(group, kind, Phase.MUTATING, hook);
  }
}
