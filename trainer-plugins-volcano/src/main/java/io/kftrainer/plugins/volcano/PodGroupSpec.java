package io.kftrainer.plugins.volcano;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.Objects;

/**
 * {@code spec} of a Volcano {@link PodGroup}. {@code minTaskMember} is part of the model for reading; this plugin
 * does not set it, as upstream.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"minMember", "minTaskMember", "queue", "priorityClassName", "minResources", "networkTopology"})
public class PodGroupSpec {

  private Integer minMember;
  private Map<String, Integer> minTaskMember;
  private String queue;
  private String priorityClassName;
  private Map<String, Quantity> minResources;
  private NetworkTopologySpec networkTopology;

  /** The number of pods that must be schedulable together before any of them is bound. */
  public Integer getMinMember() {
    return minMember;
  }

  public void setMinMember(Integer minMember) {
    this.minMember = minMember;
  }

  public PodGroupSpec withMinMember(Integer minMember) {
    this.minMember = minMember;
    return this;
  }

  /** The minimum number of pods per task (Volcano job task name). */
  public Map<String, Integer> getMinTaskMember() {
    return minTaskMember;
  }

  public void setMinTaskMember(Map<String, Integer> minTaskMember) {
    this.minTaskMember = minTaskMember;
  }

  public PodGroupSpec withMinTaskMember(Map<String, Integer> minTaskMember) {
    this.minTaskMember = minTaskMember;
    return this;
  }

  /** The Volcano queue the group is admitted through; Volcano defaults it to {@code default}. */
  public String getQueue() {
    return queue;
  }

  public void setQueue(String queue) {
    this.queue = queue;
  }

  public PodGroupSpec withQueue(String queue) {
    this.queue = queue;
    return this;
  }

  public String getPriorityClassName() {
    return priorityClassName;
  }

  public void setPriorityClassName(String priorityClassName) {
    this.priorityClassName = priorityClassName;
  }

  public PodGroupSpec withPriorityClassName(String priorityClassName) {
    this.priorityClassName = priorityClassName;
    return this;
  }

  /** The resources the {@code minMember} pods request together. */
  public Map<String, Quantity> getMinResources() {
    return minResources;
  }

  public void setMinResources(Map<String, Quantity> minResources) {
    this.minResources = minResources;
  }

  public PodGroupSpec withMinResources(Map<String, Quantity> minResources) {
    this.minResources = minResources;
    return this;
  }

  public NetworkTopologySpec getNetworkTopology() {
    return networkTopology;
  }

  public void setNetworkTopology(NetworkTopologySpec networkTopology) {
    this.networkTopology = networkTopology;
  }

  public PodGroupSpec withNetworkTopology(NetworkTopologySpec networkTopology) {
    this.networkTopology = networkTopology;
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
    PodGroupSpec that = (PodGroupSpec) o;
    return Objects.equals(minMember, that.minMember)
        && Objects.equals(minTaskMember, that.minTaskMember)
        && Objects.equals(queue, that.queue)
        && Objects.equals(priorityClassName, that.priorityClassName)
        && Objects.equals(minResources, that.minResources)
        && Objects.equals(networkTopology, that.networkTopology);
  }

  @Override
  public int hashCode() {
    return Objects.hash(minMember, minTaskMember, queue, priorityClassName, minResources, networkTopology);
  }

  @Override
  public String toString() {
    return "PodGroupSpec{minMember=" + minMember + ", minTaskMember=" + minTaskMember + ", queue=" + queue
        + ", priorityClassName=" + priorityClassName + ", minResources=" + minResources + ", networkTopology="
        + networkTopology + "}";
  }
}
