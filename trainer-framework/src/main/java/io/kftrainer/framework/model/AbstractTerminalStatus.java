package io.kftrainer.framework.model;

import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.api.v1alpha1.JobStatus;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * What a {@link io.kftrainer.framework.spi.TerminalCondition} observed: the TrainJob's terminal condition
 * ({@code Complete} or {@code Failed}, with the child's reason and message), if it has finished, and the status
 * of its jobs.
 */
@Value.Immutable
abstract class AbstractTerminalStatus {

  public abstract Optional<Condition> terminalCondition();

  public abstract List<JobStatus> jobsStatus();
}
