package io.kftrainer.plugins.mpi;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;
import io.kftrainer.framework.spi.Watch;
import io.kftrainer.framework.spi.WatchExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs MPI training (upstream's {@code MPI} plugin, with the design document's Intel MPI and MPICH implementations): a
 * {@code launcher} pod runs {@code mpirun}, which starts processes over SSH on the pods of job {@code node} (and on
 * itself with {@code runLauncherAsNode}).
 *
 * <ul>
 *   <li>{@link #validate}: {@link MpiValidation};</li>
 *   <li>{@link #enforceMLPolicy}: node count, SSH and host file volumes, mounts and launcher env
 *       ({@link MpiPodSets});</li>
 *   <li>{@link #build}: the {@link SshAuthSecret} while it does not exist, and the {@link Hostfile} ConfigMap;</li>
 *   <li>{@link #watches}: both kinds, owned.</li>
 * </ul>
 *
 * <p>Does nothing for a runtime without {@code mlPolicy.mpi}. Stateless: each build generates its own key pair.
 */
@AutoService(Plugin.class)
public final class MPIPlugin implements CustomValidation, EnforceMLPolicy, ComponentBuilder, WatchExtension {

  public static final String NAME = "MPI";
  static final String LAUNCHER = "launcher";
  static final String NODE = "node";

  private final Supplier<SshKeyPair> keyPairs;

  public MPIPlugin() {
    this(SshKeyPairGenerator::generate);
  }

  /** With a key pair source other than fresh P-521 keys, for tests. */
  MPIPlugin(Supplier<SshKeyPair> keyPairs) {
    this.keyPairs = Objects.requireNonNull(keyPairs, "keyPairs");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 110;
  }

  @Override
  public ValidationResult validate(ValidationContext context) {
    return MpiSettings.of(context.info())
        .map(settings -> MpiValidation.validate(context, settings))
        .orElse(ValidationResult.ok());
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    MpiSettings.of(context.info()).ifPresent(settings -> MpiPodSets.enforce(context, settings));
  }

  /** The SSH Secret (only while absent: it is immutable) followed by the host file ConfigMap. */
  @Override
  public List<HasMetadata> build(BuildContext context) {
    var found = MpiSettings.of(context.info());
    if (found.isEmpty()) {
      return List.of();
    }
    MpiSettings settings = found.get();
    MpiImplementation implementation = settings.requireImplementation();
    TrainJob trainJob = context.trainJob();
    String name = trainJob.getMetadata().getName();
    List<HasMetadata> objects = new ArrayList<>(2);
    if (context.cluster().get(Secret.class, trainJob.getMetadata().getNamespace(), SshAuthSecret.name(name))
        .isEmpty()) {
      objects.add(SshAuthSecret.build(name, keyPairs.get()));
    }
    int slots = Slots.perNode(trainJob, context.info(), settings);
    objects.add(Hostfile.configMap(name, Hostfile.text(context.info(), settings, implementation, slots)));
    return objects;
  }

  @Override
  public List<Watch> watches() {
    return List.of(Watch.owned(Secret.class), Watch.owned(ConfigMap.class));
  }
}
