package io.kftrainer.apiserver;

import java.util.Objects;

/** The items a list or watch request selects. */
record Selection(String namespace, String name, LabelSelector labels, FieldSelector fields) {
  boolean matches(Store.Stored stored) {
    return (namespace == null || namespace.equals(stored.namespace()))
        && (name == null || name.equals(stored.name()))
        && labels.matches(stored.object()) && fields.matches(stored.object());
  }

  /**
   * The selection of a list or watch request: its namespace, name and label and field selectors. A field selector
   * on a field the kind does not offer is refused as kube-apiserver refuses it ({@link FieldLabels}).
   */
  static Selection of(Target target, Store store) {
    ResourcePath rp = target.rp();
    try {
      FieldSelector fields = FieldSelector.parse(Objects.requireNonNullElse(rp.query().get("fieldSelector"), ""));
      Store.Stored crd = store.get(ApiHandler.CRDS, null, rp.plural() + "." + rp.group());
      String refusal = FieldLabels.refusal(target, fields.paths(), crd == null ? null : crd.object());
      if (refusal != null) {
        throw new IllegalArgumentException(refusal);
      }
      return new Selection(rp.namespace(), rp.name(), LabelSelector.parse(rp.query().get("labelSelector")), fields);
    } catch (IllegalArgumentException e) {
      throw new ApiException(Response.status(400, "BadRequest", e.getMessage()));
    }
  }
}
