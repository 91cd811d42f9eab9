package io.kftrainer.plugins.plainml;

import com.google.auto.service.AutoService;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.MLPolicyOwner;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.Plugin;

/**
 * The TrainJob's trainer settings for runtimes whose ML plugin does not apply them itself (upstream's
 * {@code PlainML} plugin): the trainer pod set runs {@code trainer.numNodes} pods when the TrainJob sets it, and its
 * container {@code node} gets {@code trainer.env} upserted.
 *
 * <p>It runs only for runtimes without an ML policy source (no {@code mlPolicy}, or {@code numNodes} only). A runtime
 * whose policy names a source ({@code torch}, {@code mpi}, {@code jax}, {@code xgboost}, {@code flux}) belongs to
 * that source's plugin ({@link MLPolicyOwner}), which applies both itself; were that plugin missing, running such a
 * runtime as plain ML would silently drop everything the policy asks for, so admission rejects it instead. Upstream's
 * PlainML also runs for XGBoost and Flux runtimes, whose plugins there leave these two steps to it.
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
    if (info.mlPolicy().flatMap(MLPolicyOwner::of).isPresent()) {
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
}
