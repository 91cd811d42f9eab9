package io.kftrainer.apiserver;

/** What the server knows of the resource a path names. */
record Target(ResourcePath rp, Store.Kind kind, String kindName, boolean namespaced, boolean statusSubresource) {
  String qualified() {
    return rp.group().isEmpty() ? rp.plural() : rp.plural() + "." + rp.group();
  }
}
