package io.kftrainer.framework.spi;

/**
 * Build phase, step 1: applies {@code TrainingRuntime.spec.mlPolicy} (torch, MPI, JAX, ...) to the runtime info:
 * pod set counts, environment, ports, volumes.
 *
 * <p>Reads the TrainJob and the runtime policy; changes only {@link BuildContext#info()}. A plugin whose policy is
 * not set in the runtime returns without changing anything.
 */
public interface EnforceMLPolicy extends Plugin {

  void enforceMLPolicy(BuildContext context);
}
