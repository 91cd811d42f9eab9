package io.kftrainer.plugins.jax;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.Plugin;
import java.util.List;
import java.util.Optional;

/**
 * Multi-host JAX (upstream's {@code JAX} plugin), for runtimes with {@code mlPolicy.jax}: one JAX process per
 * node, which {@code jax.distributed.initialize()} configures from the environment.
 *
 * <p>The trainer pod set runs {@code trainer.numNodes} pods when the TrainJob sets it; its container {@code node}
 * gets {@code JAX_NUM_PROCESSES} (the pod count), {@code JAX_PROCESS_ID} (the pod's completion index) and
 * {@code JAX_COORDINATOR_ADDRESS} ({@link CoordinatorAddress}), and port 29500.
 *
 * <p>The TrainJob's {@code trainer.env} is not this plugin's: as upstream, the JobSet builder upserts it into the
 * built JobSet, so it comes after the {@code JAX_*} variables and a TrainJob variable of the same name wins.
 */
@AutoService(Plugin.class)
public final class JaxPlugin implements EnforceMLPolicy {

  public static final String NAME = "JAX";

  static final String ENV_NUM_PROCESSES = "JAX_NUM_PROCESSES";
  static final String ENV_PROCESS_ID = "JAX_PROCESS_ID";
  static final String ENV_COORDINATOR_ADDRESS = "JAX_COORDINATOR_ADDRESS";

  private static final String COMPLETION_INDEX_FIELD_PATH =
      "metadata.annotations['" + TrainerConstants.ANNOTATION_JOB_COMPLETION_INDEX + "']";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 130;
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    RuntimeInfo info = context.info();
    if (info.mlPolicy().map(MLPolicy::getJax).isEmpty()) {
      return;
    }
    Optional<PodSet> trainerPodSet = info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER);
    if (trainerPodSet.isEmpty()) {
      return;
    }
    TrainJob trainJob = context.trainJob();
    Trainer trainer = trainJob.getSpec().getTrainer();
    PodSet podSet = trainerPodSet.get().withCount(info.numNodes(trainJob));
    List<EnvVar> jaxEnv = List.of(
        value(ENV_NUM_PROCESSES, Integer.toString(podSet.count())),
        new EnvVarBuilder().withName(ENV_PROCESS_ID)
            .withNewValueFrom().withNewFieldRef().withFieldPath(COMPLETION_INDEX_FIELD_PATH).endFieldRef()
            .endValueFrom().build(),
        value(ENV_COORDINATOR_ADDRESS, CoordinatorAddress.of(info, trainJob).toString()));
    info.putPodSet(podSet.withContainer(TrainerConstants.CONTAINER_NODE, c -> node(c, jaxEnv)));
  }

  private static ContainerInfo node(ContainerInfo container, List<EnvVar> jaxEnv) {
    return container.withEnvUpserted(jaxEnv)
        .withPortAdded(new ContainerPortBuilder().withContainerPort(CoordinatorAddress.PORT).build());
  }

  private static EnvVar value(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }
}
