package io.kftrainer.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * kube-apiserver's audit log as the lab writes it ({@link Lab#auditLog()}): the requests of service accounts with
 * their answers, so that a suite can check what an operator on a chart's RBAC was refused.
 */
public final class AuditLog {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One audited request: who, what, on which object, the status code of the answer, and the authorizer's decision
   * ({@code allow} or {@code forbid}, kube-apiserver's {@code authorization.k8s.io/decision} annotation).
   */
  public record Request(String user, String verb, String apiGroup, String resource, String namespace, String uri,
      int code, String authorization) {

    /**
     * Refused by RBAC, as opposed to a 403 of admission (a create in a namespace being deleted is refused 403 by
     * NamespaceLifecycle, whatever the RBAC).
     */
    public boolean forbiddenByAuthorization() {
      return "forbid".equals(authorization);
    }

    /** {@code get coordination.k8s.io/leases in kubeflow-system (403): /apis/...}. */
    @Override
    public String toString() {
      return verb + " " + apiGroup + "/" + resource + " in " + (namespace.isEmpty() ? "(cluster)" : namespace)
          + " (" + code + ", " + authorization + "): " + uri;
    }
  }

  private AuditLog() {
  }

  /** The requests of the users whose name starts with {@code userPrefix}, in the order they were answered. */
  public static List<Request> requests(Path auditLog, String userPrefix) {
    try (Stream<String> lines = Files.lines(auditLog)) {
      return lines.map(AuditLog::parse).filter(request -> request.user().startsWith(userPrefix)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Request parse(String line) {
    try {
      JsonNode event = JSON.readTree(line);
      JsonNode object = event.path("objectRef");
      return new Request(event.path("user").path("username").asText(), event.path("verb").asText(),
          object.path("apiGroup").asText(), object.path("resource").asText(), object.path("namespace").asText(),
          event.path("requestURI").asText(), event.path("responseStatus").path("code").asInt(),
          event.path("annotations").path("authorization.k8s.io/decision").asText());
    } catch (IOException e) {
      throw new UncheckedIOException("not an audit event: " + line, e);
    }
  }
}
