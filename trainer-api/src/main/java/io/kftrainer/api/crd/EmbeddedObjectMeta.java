package io.kftrainer.api.crd;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * Schema-only stand-in for an {@code ObjectMeta} embedded in a template: the CRD generator describes template
 * metadata with these five fields (as controller-gen's {@code generateEmbeddedObjectMeta} does upstream), so the
 * API server prunes anything else. The Java model keeps fabric8's {@code ObjectMeta}; this class is never
 * instantiated.
 */
public final class EmbeddedObjectMeta {

  @JsonProperty("annotations")
  public Map<String, String> annotations;

  @JsonProperty("finalizers")
  public List<String> finalizers;

  @JsonProperty("labels")
  public Map<String, String> labels;

  @JsonProperty("name")
  public String name;

  @JsonProperty("namespace")
  public String namespace;

  private EmbeddedObjectMeta() {
  }
}
