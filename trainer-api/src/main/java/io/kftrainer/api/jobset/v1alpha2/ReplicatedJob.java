package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crd.generator.annotation.SchemaSwap;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.kftrainer.api.crd.EmbeddedObjectMeta;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * A group of identical Jobs of a JobSet.
 *
 * <p>The schema swaps describe the metadata of the embedded templates with the five fields an embedded
 * {@code ObjectMeta} keeps on the API server (see {@link io.kftrainer.api.crd.EmbeddedObjectMeta}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"name", "groupName", "template", "replicas", "dependsOn"})
@SchemaSwap(originalType = JobTemplateSpec.class, fieldName = "metadata",
    targetType = EmbeddedObjectMeta.class)
@SchemaSwap(originalType = PodTemplateSpec.class, fieldName = "metadata",
    targetType = EmbeddedObjectMeta.class)
@SchemaSwap(originalType = PersistentVolumeClaimTemplate.class, fieldName = "metadata",
    targetType = EmbeddedObjectMeta.class)
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "template": {
              "properties": {
                "spec": {
                  "required": ["template"]
                }
              }
            },
            "dependsOn": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"]
            }
          }
        }""")
public class ReplicatedJob {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the replicated job, used as a suffix of the Job names.")
  @Required
  private String name;

  @JsonProperty("groupName")
  @JsonPropertyDescription("Name of the group this replicated job belongs to. Defaults to default.")
  @Default("default")
  private String groupName;

  @JsonProperty("template")
  @JsonPropertyDescription("Template of the Jobs.")
  @Required
  private JobTemplateSpec template;

  @JsonProperty("replicas")
  @JsonPropertyDescription("Number of Jobs created from the template, named <jobset>-<replicatedJob>-<index>. Defaults "
      + "to 1.")
  @Default("1")
  private Integer replicas;

  @JsonProperty("dependsOn")
  @JsonPropertyDescription("Replicated jobs that must reach a status before this one is created; only one entry is "
      + "supported.")
  @Size(max = 5)
  @ValidationRule(value = "self == oldSelf", message = "Value is immutable")
  private List<DependsOn> dependsOn;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public ReplicatedJob withName(String name) {
    this.name = name;
    return this;
  }

  public String getGroupName() {
    return groupName;
  }

  public void setGroupName(String groupName) {
    this.groupName = groupName;
  }

  public ReplicatedJob withGroupName(String groupName) {
    this.groupName = groupName;
    return this;
  }

  public JobTemplateSpec getTemplate() {
    return template;
  }

  public void setTemplate(JobTemplateSpec template) {
    this.template = template;
  }

  public ReplicatedJob withTemplate(JobTemplateSpec template) {
    this.template = template;
    return this;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public ReplicatedJob withReplicas(Integer replicas) {
    this.replicas = replicas;
    return this;
  }

  public List<DependsOn> getDependsOn() {
    return dependsOn;
  }

  public void setDependsOn(List<DependsOn> dependsOn) {
    this.dependsOn = dependsOn;
  }

  public ReplicatedJob withDependsOn(List<DependsOn> dependsOn) {
    this.dependsOn = dependsOn;
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
    ReplicatedJob that = (ReplicatedJob) o;
    return Objects.equals(name, that.name)
        && Objects.equals(groupName, that.groupName)
        && Objects.equals(template, that.template)
        && Objects.equals(replicas, that.replicas)
        && Objects.equals(dependsOn, that.dependsOn);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, groupName, template, replicas, dependsOn);
  }

  @Override
  public String toString() {
    return "ReplicatedJob{name=" + name
        + ", groupName=" + groupName
        + ", template=" + template
        + ", replicas=" + replicas
        + ", dependsOn=" + dependsOn
        + "}";
  }
}
