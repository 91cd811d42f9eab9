package io.kftrainer.framework.spi;

/**
 * Build phase, step 3 (after every {@link EnforcePodGroupPolicy}): adjusts the pod sets themselves
 * (containers, volumes, init containers) for concerns that are neither an ML nor a pod-group policy.
 *
 * <p>Changes only {@link BuildContext#info()}.
 */
public interface EnforcePodSpec extends Plugin {

  void enforcePodSpec(BuildContext context);
}
