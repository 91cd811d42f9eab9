package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crd.generator.annotation.SchemaSwap;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimTemplate;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.kftrainer.api.crd.EmbeddedObjectMeta;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Pod spec fields a manager may patch. Scheduling fields (nodeSelector, affinity,
 * tolerations, schedulingGates) are mutable; the others are immutable once set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"serviceAccountName", "volumes", "initContainers", "containers", "imagePullSecrets",
    "securityContext", "nodeSelector", "affinity", "tolerations", "schedulingGates", "terminationGracePeriodSeconds"})
@SchemaSwap(originalType = PersistentVolumeClaimTemplate.class, fieldName = "metadata",
    targetType = EmbeddedObjectMeta.class)
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "volumes": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              "items": {
                "required": ["name"]
              }
            },
            "initContainers": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            },
            "containers": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            },
            "imagePullSecrets": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              "items": {
                "properties": {
                  "name": {
                    "default": ""
                  }
                }
              }
            },
            "tolerations": {
              "x-kubernetes-list-type": "atomic"
            },
            "schedulingGates": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              "items": {
                "required": ["name"]
              }
            }
          }
        }""")
public class PodSpecPatch {

  @JsonProperty("serviceAccountName")
  @JsonPropertyDescription("Service account of the Pods.")
  @Size(max = 253)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private String serviceAccountName;

  @JsonProperty("volumes")
  @JsonPropertyDescription("Volumes added to the Pods.")
  @Size(max = 128)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private List<Volume> volumes;

  @JsonProperty("initContainers")
  @JsonPropertyDescription("Patches of init containers, keyed by name.")
  @Size(max = 64)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private List<ContainerPatch> initContainers;

  @JsonProperty("containers")
  @JsonPropertyDescription("Patches of containers, keyed by name.")
  @Size(max = 64)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private List<ContainerPatch> containers;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Image pull secrets of the Pods.")
  @Size(max = 64)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("securityContext")
  @JsonPropertyDescription("Pod security context.")
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private PodSecurityContext securityContext;

  @JsonProperty("nodeSelector")
  @JsonPropertyDescription("Node selector of the Pods.")
  private Map<String, String> nodeSelector;

  @JsonProperty("affinity")
  @JsonPropertyDescription("Scheduling affinity of the Pods.")
  private Affinity affinity;

  @JsonProperty("tolerations")
  @JsonPropertyDescription("Tolerations of the Pods.")
  @Size(max = 128)
  private List<Toleration> tolerations;

  @JsonProperty("schedulingGates")
  @JsonPropertyDescription("Scheduling gates of the Pods.")
  @Size(max = 16)
  private List<PodSchedulingGate> schedulingGates;

  @JsonProperty("terminationGracePeriodSeconds")
  @JsonPropertyDescription("Termination grace period of the Pods.")
  @Min(0)
  @ValidationRule(value = "self == oldSelf", message = "field is immutable")
  private Long terminationGracePeriodSeconds;

  public String getServiceAccountName() {
    return serviceAccountName;
  }

  public void setServiceAccountName(String serviceAccountName) {
    this.serviceAccountName = serviceAccountName;
  }

  public PodSpecPatch withServiceAccountName(String serviceAccountName) {
    this.serviceAccountName = serviceAccountName;
    return this;
  }

  public List<Volume> getVolumes() {
    return volumes;
  }

  public void setVolumes(List<Volume> volumes) {
    this.volumes = volumes;
  }

  public PodSpecPatch withVolumes(List<Volume> volumes) {
    this.volumes = volumes;
    return this;
  }

  public List<ContainerPatch> getInitContainers() {
    return initContainers;
  }

  public void setInitContainers(List<ContainerPatch> initContainers) {
    this.initContainers = initContainers;
  }

  public PodSpecPatch withInitContainers(List<ContainerPatch> initContainers) {
    this.initContainers = initContainers;
    return this;
  }

  public List<ContainerPatch> getContainers() {
    return containers;
  }

  public void setContainers(List<ContainerPatch> containers) {
    this.containers = containers;
  }

  public PodSpecPatch withContainers(List<ContainerPatch> containers) {
    this.containers = containers;
    return this;
  }

  public List<LocalObjectReference> getImagePullSecrets() {
    return imagePullSecrets;
  }

  public void setImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
    this.imagePullSecrets = imagePullSecrets;
  }

  public PodSpecPatch withImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
    this.imagePullSecrets = imagePullSecrets;
    return this;
  }

  public PodSecurityContext getSecurityContext() {
    return securityContext;
  }

  public void setSecurityContext(PodSecurityContext securityContext) {
    this.securityContext = securityContext;
  }

  public PodSpecPatch withSecurityContext(PodSecurityContext securityContext) {
    this.securityContext = securityContext;
    return this;
  }

  public Map<String, String> getNodeSelector() {
    return nodeSelector;
  }

  public void setNodeSelector(Map<String, String> nodeSelector) {
    this.nodeSelector = nodeSelector;
  }

  public PodSpecPatch withNodeSelector(Map<String, String> nodeSelector) {
    this.nodeSelector = nodeSelector;
    return this;
  }

  public Affinity getAffinity() {
    return affinity;
  }

  public void setAffinity(Affinity affinity) {
    this.affinity = affinity;
  }

  public PodSpecPatch withAffinity(Affinity affinity) {
    this.affinity = affinity;
    return this;
  }

  public List<Toleration> getTolerations() {
    return tolerations;
  }

  public void setTolerations(List<Toleration> tolerations) {
    this.tolerations = tolerations;
  }

  public PodSpecPatch withTolerations(List<Toleration> tolerations) {
    this.tolerations = tolerations;
    return this;
  }

  public List<PodSchedulingGate> getSchedulingGates() {
    return schedulingGates;
  }

  public void setSchedulingGates(List<PodSchedulingGate> schedulingGates) {
    this.schedulingGates = schedulingGates;
  }

  public PodSpecPatch withSchedulingGates(List<PodSchedulingGate> schedulingGates) {
    this.schedulingGates = schedulingGates;
    return this;
  }

  public Long getTerminationGracePeriodSeconds() {
    return terminationGracePeriodSeconds;
  }

  public void setTerminationGracePeriodSeconds(Long terminationGracePeriodSeconds) {
    this.terminationGracePeriodSeconds = terminationGracePeriodSeconds;
  }

  public PodSpecPatch withTerminationGracePeriodSeconds(Long terminationGracePeriodSeconds) {
    this.terminationGracePeriodSeconds = terminationGracePeriodSeconds;
    return this;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PodSpecPatch that = (PodSpecPatch) o;
    return Objects.equals(serviceAccountName, that.serviceAccountName)
        && Objects.equals(volumes, that.volumes)
        && Objects.equals(initContainers, that.initContainers)
        && Objects.equals(containers, that.containers)
        && Objects.equals(imagePullSecrets, that.imagePullSecrets)
        && Objects.equals(securityContext, that.securityContext)
        && Objects.equals(nodeSelector, that.nodeSelector)
        && Objects.equals(affinity, that.affinity)
        && Objects.equals(tolerations, that.tolerations)
        && Objects.equals(schedulingGates, that.schedulingGates)
        && Objects.equals(terminationGracePeriodSeconds, that.terminationGracePeriodSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(serviceAccountName, volumes, initContainers, containers, imagePullSecrets, securityContext,
        nodeSelector, affinity, tolerations, schedulingGates, terminationGracePeriodSeconds);
  }

  @Override
  public String toString() {
    return "PodSpecPatch{serviceAccountName=" + serviceAccountName
        + ", volumes=" + volumes
        + ", initContainers=" + initContainers
        + ", containers=" + containers
        + ", imagePullSecrets=" + imagePullSecrets
        + ", securityContext=" + securityContext
        + ", nodeSelector=" + nodeSelector
        + ", affinity=" + affinity
        + ", tolerations=" + tolerations
        + ", schedulingGates=" + schedulingGates
        + ", terminationGracePeriodSeconds=" + terminationGracePeriodSeconds
        + "}";
  }
}
