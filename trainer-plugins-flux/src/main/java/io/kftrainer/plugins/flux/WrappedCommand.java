package io.kftrainer.plugins.flux;

import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * Container {@code node}'s command under Flux: {@code /bin/bash /etc/flux-config/entrypoint.sh "<command>"}, where
 * {@code <command>} is the trainer's command line as one string, which the lead broker runs with
 * {@code flux run}. The command line is the TrainJob's {@code trainer.command}, else the runtime's container
 * {@code node} command, followed by the TrainJob's {@code trainer.args}, joined by spaces and trimmed, as upstream
 * joins them (so an argument containing a space is split by the shell).
 */
final class WrappedCommand {

  private WrappedCommand() {
  }

  static List<String> of(RuntimeInfo info, TrainJob trainJob) {
    return List.of("/bin/bash", FluxPodSet.CONFIG_PATH + "/" + EntrypointConfigMap.ENTRYPOINT,
        original(info, trainJob));
  }

  static String original(RuntimeInfo info, TrainJob trainJob) {
    List<String> words = new ArrayList<>(info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER)
        .flatMap(podSet -> podSet.container(TrainerConstants.CONTAINER_NODE))
        .map(ContainerInfo::command)
        .orElse(List.of()));
    Trainer trainer = trainJob.getSpec() == null ? null : trainJob.getSpec().getTrainer();
    if (trainer != null && trainer.getCommand() != null) {
      words = new ArrayList<>(trainer.getCommand());
    }
    if (trainer != null && trainer.getArgs() != null) {
      words.addAll(trainer.getArgs());
    }
    return String.join(" ", words).strip();
  }
}
