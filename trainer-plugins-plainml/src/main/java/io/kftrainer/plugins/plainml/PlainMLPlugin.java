package io.kftrainer.plugins.plainml;

import com.google.auto.service.AutoService;
import io.kftrainer.api.v1alpha1.MLPolicy;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.Plugin;

/**
 * The TrainJob's trainer settings for runtimes whose ML plugin does not apply them itself (upstream's
 * {@code PlainML} plugin): the trainer pod set runs {@code trainer.numNodes} pods when the TrainJob sets it, and its
 * container {@code node} gets {@code trainer.env} upserted.
 *
 * <p>It runs unless the runtime's ML policy is torch, MPI or JAX, whose plugins do both themselves: so for runtimes
 * without a policy (or with {@code numNodes} only), and also for Flux and XGBoost. The XGBoost plugin sets the count
 * but leaves {@code trainer.env} to this one, which runs before it (order 120 &lt; 140), so the TrainJob's variables
 * come before the {@code DMLC_*} ones.
 */
@AutoService(Plugin.class)
public final class PlainMLPlugin implements EnforceMLPolicy {

  public static final String NAME = "PlainML";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int order() {
    return 120;
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    RuntimeInfo info = context.info();
    if (info.mlPolicy().filter(PlainMLPlugin::hasOwnTrainerPlugin).isPresent()) {
      return;
    }
    Trainer trainer = context.trainJob().getSpec().getTrainer();
    if (trainer == null) {
      return;
    }
    info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER).ifPresent(trainerPodSet -> {
      var podSet = trainerPodSet.withCount(info.numNodes(context.trainJob()));
      if (trainer.getEnv() != null) {
        podSet = podSet.withContainer(TrainerConstants.CONTAINER_NODE, c -> c.withEnvUpserted(trainer.getEnv()));
      }
      info.putPodSet(podSet);
    });
  }

  private static boolean hasOwnTrainerPlugin(MLPolicy policy) {
    return policy.getTorch() != null || policy.getMpi() != null || policy.getJax() != null;
  }
}
