package io.kftrainer.webhook;

import com.fasterxml.jackson.databind.JsonMappingException;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;

/**
 * The object of an admission request does not fit the model (a number out of the range of its Java type that the
 * CRD's schema allows, e.g. {@code numNodes: 99999999999999999999}). Denied as an invalid field, never a 500.
 */
public final class UndecodableObjectException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient FieldError error;

  UndecodableObjectException(JsonMappingException cause) {
    super(cause.getOriginalMessage(), cause);
    this.error = FieldError.invalid(pathOf(cause), null, firstLine(cause.getOriginalMessage()));
  }

  FieldError error() {
    return error;
  }

  private static FieldPath pathOf(JsonMappingException e) {
    FieldPath path = null;
    for (JsonMappingException.Reference step : e.getPath()) {
      if (step.getFieldName() != null) {
        path = path == null ? FieldPath.of(step.getFieldName()) : path.child(step.getFieldName());
      } else if (path != null && step.getIndex() >= 0) {
        path = path.index(step.getIndex());
      }
    }
    return path == null ? FieldPath.of("<object>") : path;
  }

  private static String firstLine(String message) {
    String text = message == null ? "cannot be read" : message;
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}
