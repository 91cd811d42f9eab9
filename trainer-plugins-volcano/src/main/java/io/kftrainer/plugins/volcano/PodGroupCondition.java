package io.kftrainer.plugins.volcano;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/** One entry of a Volcano {@link PodGroupStatus}'s conditions ({@code Scheduled}, {@code Unschedulable}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"type", "status", "transitionID", "lastTransitionTime", "reason", "message"})
public class PodGroupCondition {

  private String type;
  private String status;
  private String transitionID;
  private String lastTransitionTime;
  private String reason;
  private String message;

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public PodGroupCondition withType(String type) {
    this.type = type;
    return this;
  }

  /** {@code True}, {@code False} or {@code Unknown}. */
  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public PodGroupCondition withStatus(String status) {
    this.status = status;
    return this;
  }

  public String getTransitionID() {
    return transitionID;
  }

  public void setTransitionID(String transitionID) {
    this.transitionID = transitionID;
  }

  public PodGroupCondition withTransitionID(String transitionID) {
    this.transitionID = transitionID;
    return this;
  }

  /** RFC 3339. */
  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public PodGroupCondition withLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
    return this;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }

  public PodGroupCondition withReason(String reason) {
    this.reason = reason;
    return this;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public PodGroupCondition withMessage(String message) {
    this.message = message;
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
    PodGroupCondition that = (PodGroupCondition) o;
    return Objects.equals(type, that.type)
        && Objects.equals(status, that.status)
        && Objects.equals(transitionID, that.transitionID)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime)
        && Objects.equals(reason, that.reason)
        && Objects.equals(message, that.message);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, status, transitionID, lastTransitionTime, reason, message);
  }

  @Override
  public String toString() {
    return "PodGroupCondition{type=" + type + ", status=" + status + ", transitionID=" + transitionID
        + ", lastTransitionTime=" + lastTransitionTime + ", reason=" + reason + ", message=" + message + "}";
  }
}
