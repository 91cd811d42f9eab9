package io.kftrainer.e2e.docs;

// The EnforcePodSpec example of docs/writing-plugins.md ("Changing pods"); WritingPluginsDocTest keeps them equal.
// tag::enforce-pod-spec[]
import com.google.auto.service.AutoService;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.model.RuntimeInfo;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforcePodSpec;
import io.kftrainer.framework.spi.Plugin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Puts every trainer pod in the node pool {@code training} and tells it so. */
@AutoService(Plugin.class)
public final class TeamNodesPlugin implements EnforcePodSpec {

  public static final String NAME = "example-team-nodes";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void enforcePodSpec(BuildContext context) {
    RuntimeInfo info = context.info();
    // env, ports, volume mounts, volumes: through the pod sets
    EnvVar pool = new EnvVar("NODE_POOL", "training", null);
    info.updateTrainerPodSets(podSet -> podSet.withEveryContainer(c -> c.withEnvUpserted(List.of(pool))));
    // pod fields a PodSet has no slot for (node selector, tolerations, affinity): the pod template
    for (PodSet podSet : info.trainerPodSets()) {
      info.podSpec(podSet.name()).ifPresent(pod -> {
        Map<String, String> selector = new LinkedHashMap<>();
        if (pod.getNodeSelector() != null) {
          selector.putAll(pod.getNodeSelector());
        }
        selector.put("example.com/pool", "training");
        pod.setNodeSelector(selector);
      });
    }
  }
}
// end::enforce-pod-spec[]
