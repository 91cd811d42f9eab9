package io.kftrainer.framework.spi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/**
 * Build phase, step 5: returns the Kubernetes objects this plugin wants to exist for the TrainJob.
 *
 * <p>Reads the TrainJob and the final runtime info and must not change either. The objects are desired state:
 * the runner sets their namespace, the controller owner reference and the TrainJob label, and the operator applies
 * them with server-side apply. Return an empty list to leave existing objects as they are (for example an immutable
 * Secret that already exists, seen through {@link BuildContext#cluster()}).
 */
public interface ComponentBuilder extends Plugin {

  List<HasMetadata> build(BuildContext context);
}
