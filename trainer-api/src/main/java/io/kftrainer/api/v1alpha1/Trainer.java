package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.List;
import java.util.Objects;

/**
 * Overrides for the trainer step; applied to the runtime Job labelled
 * {@code trainer.kubeflow.org/trainjob-ancestor-step: trainer}.
 *
 * <p>{@code numProcPerNode} is an int-or-string: upstream v2.2+ only accepts an int, while v2.1 and older
 * documents use {@code auto}, {@code cpu} or {@code gpu}; both forms are accepted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"image", "command", "args", "env", "numNodes", "resourcesPerNode", "numProcPerNode"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "command": {
              "x-kubernetes-list-type": "atomic",
              "items": {
                "maxLength": 1048576
              }
            },
            "args": {
              "x-kubernetes-list-type": "atomic",
              "items": {
                "maxLength": 1048576
              }
            },
            "env": {
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["name"],
              "items": {
                "required": ["name"]
              }
            }
          }
        }""")
public class Trainer {

  @JsonProperty("image")
  @JsonPropertyDescription("Container image of the training container.")
  @Size(max = 500)
  private String image;

  @JsonProperty("command")
  @JsonPropertyDescription("Entrypoint of the training container.")
  @Size(max = 128)
  private List<String> command;

  @JsonProperty("args")
  @JsonPropertyDescription("Arguments of the training container entrypoint.")
  @Size(max = 128)
  private List<String> args;

  @JsonProperty("env")
  @JsonPropertyDescription("Environment variables for the training container, merged with the runtime ones.")
  @Size(max = 128)
  private List<EnvVar> env;

  @JsonProperty("numNodes")
  @JsonPropertyDescription("Number of training nodes.")
  @Min(0)
  private Integer numNodes;

  @JsonProperty("resourcesPerNode")
  @JsonPropertyDescription("Compute resources of every training node.")
  private ResourceRequirements resourcesPerNode;

  // No CEL rule, as upstream's TrainJob: the validating webhook checks the value per runtime ("must have an int
  // value or [auto cpu gpu]"). A rule "self > 0 || self in [...]" fails to evaluate on kube-apiserver for any other
  // string ('no such overload'), and that error, not the webhook's message, was what a user saw.
  @JsonProperty("numProcPerNode")
  @JsonPropertyDescription("Processes (workers, slots) per training node: an int >= 1, or auto, cpu or gpu for torch "
      + "runtimes.")
  private IntOrString numProcPerNode;

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public Trainer withImage(String image) {
    this.image = image;
    return this;
  }

  public List<String> getCommand() {
    return command;
  }

  public void setCommand(List<String> command) {
    this.command = command;
  }

  public Trainer withCommand(List<String> command) {
    this.command = command;
    return this;
  }

  public List<String> getArgs() {
    return args;
  }

  public void setArgs(List<String> args) {
    this.args = args;
  }

  public Trainer withArgs(List<String> args) {
    this.args = args;
    return this;
  }

  public List<EnvVar> getEnv() {
    return env;
  }

  public void setEnv(List<EnvVar> env) {
    this.env = env;
  }

  public Trainer withEnv(List<EnvVar> env) {
    this.env = env;
    return this;
  }

  public Integer getNumNodes() {
    return numNodes;
  }

  public void setNumNodes(Integer numNodes) {
    this.numNodes = numNodes;
  }

  public Trainer withNumNodes(Integer numNodes) {
    this.numNodes = numNodes;
    return this;
  }

  public ResourceRequirements getResourcesPerNode() {
    return resourcesPerNode;
  }

  public void setResourcesPerNode(ResourceRequirements resourcesPerNode) {
    this.resourcesPerNode = resourcesPerNode;
  }

  public Trainer withResourcesPerNode(ResourceRequirements resourcesPerNode) {
    this.resourcesPerNode = resourcesPerNode;
    return this;
  }

  public IntOrString getNumProcPerNode() {
    return numProcPerNode;
  }

  public void setNumProcPerNode(IntOrString numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
  }

  public Trainer withNumProcPerNode(IntOrString numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
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
    Trainer that = (Trainer) o;
    return Objects.equals(image, that.image)
        && Objects.equals(command, that.command)
        && Objects.equals(args, that.args)
        && Objects.equals(env, that.env)
        && Objects.equals(numNodes, that.numNodes)
        && Objects.equals(resourcesPerNode, that.resourcesPerNode)
        && Objects.equals(numProcPerNode, that.numProcPerNode);
  }

  @Override
  public int hashCode() {
    return Objects.hash(image, command, args, env, numNodes, resourcesPerNode, numProcPerNode);
  }

  @Override
  public String toString() {
    return "Trainer{image=" + image
        + ", command=" + command
        + ", args=" + args
        + ", env=" + env
        + ", numNodes=" + numNodes
        + ", resourcesPerNode=" + resourcesPerNode
        + ", numProcPerNode=" + numProcPerNode
        + "}";
  }
}
