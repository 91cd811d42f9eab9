package com.example.trainer.team;

import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforcePodSpec;
import io.kftrainer.framework.spi.Plugin;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends a team's training pods to the team's dedicated nodes. For a TrainJob labelled {@code team: <team>}:
 *
 * <ul>
 *   <li>every pod template gets the label {@value #POD_LABEL}{@code =<team>} (through the scheduler pod labels,
 *       which the JobSet plugin writes on every pod template), for quotas, cost reports and affinities;</li>
 *   <li>the trainer's pods (the pod set with ancestor {@code trainer}) tolerate the taint
 *       {@value #TAINT_KEY}{@code =<team>:NoSchedule} that marks the team's nodes.</li>
 * </ul>
 *
 * <p>{@code RuntimeInfo} has no toleration field of its own, so the toleration goes into the pod spec of the trainer's
 * replicated job in {@link RuntimeInfo#template()} ({@link RuntimeInfo#podSpec}): the JobSet spec, runtime patches
 * already merged, that the JobSet plugin copies when it builds the JobSet. Only scheduling fields may be changed there; containers, volumes and counts belong to
 * the pod sets. A TrainJob without a team is left alone.
 */
@AutoService(Plugin.class)
public final class TeamTolerationPlugin implements EnforcePodSpec {

  public static final String NAME = "example-team-toleration";

  /** Label on every pod template: the TrainJob's team. */
  public static final String POD_LABEL = "example.com/team";

  /** Key of the taint on a team's dedicated nodes; its value is the team. */
  public static final String TAINT_KEY = "example.com/dedicated";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void enforcePodSpec(BuildContext context) {
    TeamLabel.of(context.trainJob()).ifPresent(team -> {
      RuntimeInfo info = context.info();
      info.schedulerPodLabels().put(POD_LABEL, team);
      info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER)
          .flatMap(podSet -> info.podSpec(podSet.name()))
          .ifPresent(pod -> addToleration(pod, toleration(team)));
    });
  }

  private static Toleration toleration(String team) {
    Toleration toleration = new Toleration();
    toleration.setKey(TAINT_KEY);
    toleration.setOperator("Equal");
    toleration.setValue(team);
    toleration.setEffect("NoSchedule");
    return toleration;
  }

  /** Appends the toleration unless the pod already has it (a runtime patch may have set it). */
  private static void addToleration(PodSpec pod, Toleration toleration) {
    List<Toleration> tolerations = new ArrayList<>();
    if (pod.getTolerations() != null) {
      tolerations.addAll(pod.getTolerations());
    }
    if (!tolerations.contains(toleration)) {
      tolerations.add(toleration);
    }
    pod.setTolerations(tolerations);
  }
}
