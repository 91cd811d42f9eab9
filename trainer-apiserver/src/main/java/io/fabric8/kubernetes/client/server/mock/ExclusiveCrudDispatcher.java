package io.fabric8.kubernetes.client.server.mock;

import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherHandler;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * Shim that lives in fabric8's package only because {@code KubernetesCrudDispatcher.process(..)} is
 * package-private: it lets a subclass run an action while holding the dispatcher's write lock, the same
 * lock fabric8's own POST/PUT/PATCH/DELETE handlers hold. Nothing else belongs here.
 */
public abstract class ExclusiveCrudDispatcher extends KubernetesCrudDispatcher {

  /** An action run under the store's write lock. */
  @FunctionalInterface
  protected interface ExclusiveAction {
    MockResponse run() throws KubernetesCrudDispatcherException;
  }

  /**
   * Runs {@code action} under the write lock; a {@link KubernetesCrudDispatcherException} thrown by it becomes
   * a Status response with the exception's code.
   */
  protected final MockResponse exclusively(ExclusiveAction action) {
    return process(null, new KubernetesCrudDispatcherHandler() {
      @Override
      public MockResponse handle(RecordedRequest ignored) throws KubernetesCrudDispatcherException {
        return action.run();
      }

      @Override
      public MockResponse handle(String path, String contentType, String requestBody) {
        throw new UnsupportedOperationException();
      }
    });
  }
}
