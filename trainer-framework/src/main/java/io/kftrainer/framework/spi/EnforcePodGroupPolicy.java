package io.kftrainer.framework.spi;

/**
 * Build phase, step 2 (after every {@link EnforceMLPolicy}): applies {@code TrainingRuntime.spec.podGroupPolicy}
 * (gang scheduling) to the runtime info, typically scheduler pod labels and annotations.
 *
 * <p>Changes only {@link BuildContext#info()}.
 */
public interface EnforcePodGroupPolicy extends Plugin {

  void enforcePodGroupPolicy(BuildContext context);
}
