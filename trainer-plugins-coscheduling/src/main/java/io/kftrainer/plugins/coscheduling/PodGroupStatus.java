package io.kftrainer.plugins.coscheduling;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * {@code status} of a scheduler-plugins {@link PodGroup}, written by the scheduler's PodGroup controller. The
 * operator never writes it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"phase", "occupiedBy", "running", "succeeded", "failed", "scheduleStartTime"})
public class PodGroupStatus {

  private String phase;
  private String occupiedBy;
  private Integer running;
  private Integer succeeded;
  private Integer failed;
  private String scheduleStartTime;

  /** {@code Pending}, {@code PreScheduling}, {@code Scheduling}, {@code Scheduled}, {@code Running}, ... */
  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public PodGroupStatus withPhase(String phase) {
    this.phase = phase;
    return this;
  }

  /** The UID of the workload whose pods occupy the group. */
  public String getOccupiedBy() {
    return occupiedBy;
  }

  public void setOccupiedBy(String occupiedBy) {
    this.occupiedBy = occupiedBy;
  }

  public PodGroupStatus withOccupiedBy(String occupiedBy) {
    this.occupiedBy = occupiedBy;
    return this;
  }

  public Integer getRunning() {
    return running;
  }

  public void setRunning(Integer running) {
    this.running = running;
  }

  public PodGroupStatus withRunning(Integer running) {
    this.running = running;
    return this;
  }

  public Integer getSucceeded() {
    return succeeded;
  }

  public void setSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
  }

  public PodGroupStatus withSucceeded(Integer succeeded) {
    this.succeeded = succeeded;
    return this;
  }

  public Integer getFailed() {
    return failed;
  }

  public void setFailed(Integer failed) {
    this.failed = failed;
  }

  public PodGroupStatus withFailed(Integer failed) {
    this.failed = failed;
    return this;
  }

  /** When the scheduler started to schedule the group, RFC 3339. */
  public String getScheduleStartTime() {
    return scheduleStartTime;
  }

  public void setScheduleStartTime(String scheduleStartTime) {
    this.scheduleStartTime = scheduleStartTime;
  }

  public PodGroupStatus withScheduleStartTime(String scheduleStartTime) {
    this.scheduleStartTime = scheduleStartTime;
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
    PodGroupStatus that = (PodGroupStatus) o;
    return Objects.equals(phase, that.phase)
        && Objects.equals(occupiedBy, that.occupiedBy)
        && Objects.equals(running, that.running)
        && Objects.equals(succeeded, that.succeeded)
        && Objects.equals(failed, that.failed)
        && Objects.equals(scheduleStartTime, that.scheduleStartTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(phase, occupiedBy, running, succeeded, failed, scheduleStartTime);
  }

  @Override
  public String toString() {
    return "PodGroupStatus{phase=" + phase + ", occupiedBy=" + occupiedBy + ", running=" + running
        + ", succeeded=" + succeeded + ", failed=" + failed + ", scheduleStartTime=" + scheduleStartTime + "}";
  }
}
