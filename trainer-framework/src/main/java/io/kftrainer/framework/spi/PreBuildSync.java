package io.kftrainer.framework.spi;

/**
 * Build phase, step 4 (after every {@link EnforcePodSpec}, before any {@link ComponentBuilder}): derives values
 * that builders need from the final pod sets, such as pod endpoints and job parallelism.
 *
 * <p>Changes only {@link BuildContext#info()}.
 */
public interface PreBuildSync extends Plugin {

  void preBuildSync(BuildContext context);
}
