package io.kftrainer.api.jobset.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * Networking options of a JobSet.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"enableDNSHostnames", "subdomain", "publishNotReadyAddresses"})
public class Network {

  @JsonProperty("enableDNSHostnames")
  @JsonPropertyDescription("Whether Pods are reachable through their hostnames.")
  private Boolean enableDNSHostnames;

  @JsonProperty("subdomain")
  @JsonPropertyDescription("Network subdomain; defaults to the JobSet name.")
  private String subdomain;

  @JsonProperty("publishNotReadyAddresses")
  @JsonPropertyDescription("Whether DNS records are published before the Pods are ready; defaults to true.")
  private Boolean publishNotReadyAddresses;

  public Boolean getEnableDNSHostnames() {
    return enableDNSHostnames;
  }

  public void setEnableDNSHostnames(Boolean enableDNSHostnames) {
    this.enableDNSHostnames = enableDNSHostnames;
  }

  public Network withEnableDNSHostnames(Boolean enableDNSHostnames) {
    this.enableDNSHostnames = enableDNSHostnames;
    return this;
  }

  public String getSubdomain() {
    return subdomain;
  }

  public void setSubdomain(String subdomain) {
    this.subdomain = subdomain;
  }

  public Network withSubdomain(String subdomain) {
    this.subdomain = subdomain;
    return this;
  }

  public Boolean getPublishNotReadyAddresses() {
    return publishNotReadyAddresses;
  }

  public void setPublishNotReadyAddresses(Boolean publishNotReadyAddresses) {
    this.publishNotReadyAddresses = publishNotReadyAddresses;
  }

  public Network withPublishNotReadyAddresses(Boolean publishNotReadyAddresses) {
    this.publishNotReadyAddresses = publishNotReadyAddresses;
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
    Network that = (Network) o;
    return Objects.equals(enableDNSHostnames, that.enableDNSHostnames)
        && Objects.equals(subdomain, that.subdomain)
        && Objects.equals(publishNotReadyAddresses, that.publishNotReadyAddresses);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enableDNSHostnames, subdomain, publishNotReadyAddresses);
  }

  @Override
  public String toString() {
    return "Network{enableDNSHostnames=" + enableDNSHostnames
        + ", subdomain=" + subdomain
        + ", publishNotReadyAddresses=" + publishNotReadyAddresses
        + "}";
  }
}
