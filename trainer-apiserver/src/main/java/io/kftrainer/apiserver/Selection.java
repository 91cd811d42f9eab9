package io.kftrainer.apiserver;

import java.util.Objects;

/** The items a list or watch request selects. */
record Selection(String namespace, String name, LabelSelector labels, FieldSelector fields) {
  boolean matches(Store.Stored stored) {
    return (namespace == null || namespace.equals(stored.namespace()))
        && (name == null || name.equals(stored.name()))
        && labels.matches(stored.object()) && fields.matches(stored.object());
  }

  /** The selection of a list or watch request: its namespace, name and label and field selectors. */
  static Selection of(ResourcePath rp) {
    try {
      return new Selection(rp.namespace(), rp.name(), LabelSelector.parse(rp.query().get("labelSelector")),
          FieldSelector.parse(Objects.requireNonNullElse(rp.query().get("fieldSelector"), "")));
    } catch (IllegalArgumentException e) {
      throw new ApiException(Response.status(400, "BadRequest", e.getMessage()));
    }
  }
}
