package io.kftrainer.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.kftrainer.api.crd.SchemaPatch;
import java.util.Objects;

/**
 * MPI runtime configuration. {@code mpiImplementation} is one of
 * {@link TrainerConstants#MPI_IMPLEMENTATION_OPENMPI} (the default, and upstream's only value),
 * {@link TrainerConstants#MPI_IMPLEMENTATION_INTEL} or {@link TrainerConstants#MPI_IMPLEMENTATION_MPICH} (the design document's
 * implementations, see trainer-plugins-mpi).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"numProcPerNode", "mpiImplementation", "sshAuthMountPath", "runLauncherAsNode"})
@SchemaCustomizer(value = SchemaPatch.class, input = """
        {
          "properties": {
            "mpiImplementation": {
              "enum": ["OpenMPI", "Intel", "MPICH", ""]
            }
          }
        }""")
public class MPIMLPolicySource {

  @JsonProperty("numProcPerNode")
  @JsonPropertyDescription("Processes per node, i.e. slots per host in the hostfile. Defaults to 1.")
  @Default("1")
  @ValidationRule(value = "self >= 1", message = "NumProcPerNode in mpiPolicy must be >= 1")
  private Integer numProcPerNode;

  @JsonProperty("mpiImplementation")
  @JsonPropertyDescription("MPI implementation the hostfile is written for. Defaults to OpenMPI.")
  @Default(TrainerConstants.MPI_IMPLEMENTATION_OPENMPI)
  private String mpiImplementation;

  @JsonProperty("sshAuthMountPath")
  @JsonPropertyDescription("Directory where the SSH keys are mounted. Defaults to /root/.ssh.")
  @Default("/root/.ssh")
  @Size(max = 4096)
  private String sshAuthMountPath;

  @JsonProperty("runLauncherAsNode")
  @JsonPropertyDescription("Whether the launcher Job also runs a training process. Defaults to false.")
  @Default("false")
  private Boolean runLauncherAsNode;

  public Integer getNumProcPerNode() {
    return numProcPerNode;
  }

  public void setNumProcPerNode(Integer numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
  }

  public MPIMLPolicySource withNumProcPerNode(Integer numProcPerNode) {
    this.numProcPerNode = numProcPerNode;
    return this;
  }

  public String getMpiImplementation() {
    return mpiImplementation;
  }

  public void setMpiImplementation(String mpiImplementation) {
    this.mpiImplementation = mpiImplementation;
  }

  public MPIMLPolicySource withMpiImplementation(String mpiImplementation) {
    this.mpiImplementation = mpiImplementation;
    return this;
  }

  public String getSshAuthMountPath() {
    return sshAuthMountPath;
  }

  public void setSshAuthMountPath(String sshAuthMountPath) {
    this.sshAuthMountPath = sshAuthMountPath;
  }

  public MPIMLPolicySource withSshAuthMountPath(String sshAuthMountPath) {
    this.sshAuthMountPath = sshAuthMountPath;
    return this;
  }

  public Boolean getRunLauncherAsNode() {
    return runLauncherAsNode;
  }

  public void setRunLauncherAsNode(Boolean runLauncherAsNode) {
    this.runLauncherAsNode = runLauncherAsNode;
  }

  public MPIMLPolicySource withRunLauncherAsNode(Boolean runLauncherAsNode) {
    this.runLauncherAsNode = runLauncherAsNode;
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
    MPIMLPolicySource that = (MPIMLPolicySource) o;
    return Objects.equals(numProcPerNode, that.numProcPerNode)
        && Objects.equals(mpiImplementation, that.mpiImplementation)
        && Objects.equals(sshAuthMountPath, that.sshAuthMountPath)
        && Objects.equals(runLauncherAsNode, that.runLauncherAsNode);
  }

  @Override
  public int hashCode() {
    return Objects.hash(numProcPerNode, mpiImplementation, sshAuthMountPath, runLauncherAsNode);
  }

  @Override
  public String toString() {
    return "MPIMLPolicySource{numProcPerNode=" + numProcPerNode
        + ", mpiImplementation=" + mpiImplementation
        + ", sshAuthMountPath=" + sshAuthMountPath
        + ", runLauncherAsNode=" + runLauncherAsNode
        + "}";
  }
}
