package io.kftrainer.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusDetails;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A complete (not streamed) HTTP answer of the embedded server. */
record Response(int code, String contentType, byte[] body, List<String> warnings) {

  static final String JSON = "application/json";

  static Response json(int code, Object body) {
    final String text;
    if (body instanceof String) {
      text = (String) body;
    } else {
      try {
        text = Json.MAPPER.writeValueAsString(body);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
    return new Response(code, JSON, text.getBytes(StandardCharsets.UTF_8), new ArrayList<>());
  }

  static Response text(int code, String text) {
    return new Response(code, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8), new ArrayList<>());
  }

  /** A failure {@code Status} as kube-apiserver writes it. */
  static Response status(int code, String reason, String message) {
    return json(code, failure(code, reason, message, null));
  }

  static Status failure(int code, String reason, String message, StatusDetails details) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setMetadata(new io.fabric8.kubernetes.api.model.ListMeta());
    status.setStatus("Failure");
    status.setCode(code);
    status.setReason(reason);
    status.setMessage(message);
    status.setDetails(details);
    return status;
  }

  /** kube-apiserver's answer to the immediate deletion of an object. */
  static Status success(String qualifiedResource, Store.Stored deleted) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setMetadata(new io.fabric8.kubernetes.api.model.ListMeta());
    status.setStatus("Success");
    StatusDetails details = new StatusDetails();
    details.setName(deleted.name());
    int dot = qualifiedResource.indexOf('.');
    details.setGroup(dot < 0 ? "" : qualifiedResource.substring(dot + 1));
    details.setKind(dot < 0 ? qualifiedResource : qualifiedResource.substring(0, dot));
    details.setUid(deleted.uid());
    status.setDetails(details);
    return status;
  }

  static Response notFound() {
    return status(404, "NotFound", "the server could not find the requested resource");
  }

  static Response methodNotAllowed() {
    return status(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
  }

  Response withWarnings(List<String> more) {
    warnings.addAll(more);
    return this;
  }
}
