package io.kftrainer.framework.spi;

import io.kftrainer.framework.model.TerminalStatus;
import java.util.Optional;

/**
 * Post-execution phase: computes whether the TrainJob has finished, from the child objects it owns, and the
 * status of its jobs. At most one plugin may provide it: two are a start-up error.
 *
 * <p>Returns empty when the children say nothing yet (for example before the JobSet exists).
 */
public interface TerminalCondition extends Plugin {

  Optional<TerminalStatus> terminalStatus(StatusContext context);
}
