package io.kftrainer.plugins.jobset;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EmptyDirVolumeSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.PodSet;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * An ML plugin that changes every part of pod set {@code node} the JobSet plugin merges: count, env (upserted), a
 * port, a volume and its mount, an added init container, and the whole command of container {@code node}.
 */
final class TestingMLPolicyPlugin implements EnforceMLPolicy {

  @Override
  public String name() {
    return "TestingMLPolicy";
  }

  @Override
  public int order() {
    return 100;
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    context.info().updatePodSet("node", ps -> {
      List<ContainerInfo> initContainers = new ArrayList<>(ps.initContainers());
      initContainers.add(ContainerInfo.builder()
          .name("wait-for-peers")
          .image("busybox:1.36")
          .command(List.of("sh", "-c", "sleep 5"))
          .build());
      return PodSet.copyOf(ps.withVolumeUpserted(volume()).withContainer("node", c -> c
              .withEnvUpserted(List.of(new EnvVar("NUM_NODES", "3", null)))
              .withPortAdded(port())
              .withVolumeMountUpserted(mount())
              .withCommand(List.of("torchrun", "--nnodes=3", "train.py"))))
          .withInitContainers(initContainers)
          .withCount(3);
    });
  }

  private static Volume volume() {
    Volume volume = new Volume();
    volume.setName("scratch");
    volume.setEmptyDir(new EmptyDirVolumeSource());
    return volume;
  }

  private static VolumeMount mount() {
    VolumeMount mount = new VolumeMount();
    mount.setName("scratch");
    mount.setMountPath("/scratch");
    return mount;
  }

  private static ContainerPort port() {
    ContainerPort port = new ContainerPort();
    port.setContainerPort(29500);
    return port;
  }
}
