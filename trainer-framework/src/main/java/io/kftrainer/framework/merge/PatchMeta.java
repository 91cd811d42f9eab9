package io.kftrainer.framework.merge;

import java.util.Set;

/**
 * What {@link StrategicMerge} needs to know about one place of an object: its patch strategy and merge key
 * (Kubernetes' {@code x-kubernetes-patch-strategy} and {@code x-kubernetes-patch-merge-key}, the
 * {@code patchStrategy} and {@code patchMergeKey} tags of the Go types), and the same for its fields and list items
 * (k8s.io/apimachinery's {@code LookupPatchMeta}).
 */
public interface PatchMeta {

  /** The place of the field {@code name} of an object, or of its values when it is a map. */
  PatchMeta field(String name);

  /** The place of the items of a list. */
  PatchMeta items();

  /** {@code merge}, {@code replace}, {@code retainKeys}; empty when the place has none (lists are then replaced). */
  Set<String> patchStrategies();

  /** The field that identifies an item of a merged list of objects, or null (a merged list of values: a set). */
  String patchMergeKey();
}
