package io.kftrainer.plugins.flux;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.ContainerInfo;
import io.kftrainer.framework.model.RuntimeInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Flux settings that upstream lets a runtime or a TrainJob choose through environment variables of the trainer:
 * {@value #VIEW_IMAGE} (the image of the {@code flux-installer} init container, a Flux view built for the OS of the
 * training image), {@value #NETWORK_DEVICE} (what the brokers bind to) and {@value #QUEUE_POLICY} (Fluxion's queue
 * policy). The runtime's container {@code node} of its trainer job sets them first, the TrainJob's
 * {@code trainer.env} overrides; only literal values count ({@link FluxValidation} rejects a TrainJob's
 * {@code valueFrom}: the operator, not the pod, reads them).
 */
record BrokerSettings(String viewImage, String networkDevice, String queuePolicy) {

  static final String VIEW_IMAGE = "FLUX_VIEW_IMAGE";
  static final String NETWORK_DEVICE = "FLUX_NETWORK_DEVICE";
  static final String QUEUE_POLICY = "FLUX_QUEUE_POLICY";
  static final Set<String> NAMES = Set.of(VIEW_IMAGE, NETWORK_DEVICE, QUEUE_POLICY);

  /** Upstream's defaults: an Ubuntu 22.04 view, {@code eth0}, first come first served. */
  static final BrokerSettings DEFAULTS =
      new BrokerSettings("ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy", "eth0", "fcfs");

  static BrokerSettings of(RuntimeInfo info, TrainJob trainJob) {
    Map<String, String> values = new LinkedHashMap<>();
    info.podSetByAncestor(TrainerConstants.ANCESTOR_TRAINER)
        .flatMap(podSet -> podSet.container(TrainerConstants.CONTAINER_NODE))
        .map(ContainerInfo::env)
        .ifPresent(env -> putLiterals(values, env));
    Trainer trainer = trainJob.getSpec() == null ? null : trainJob.getSpec().getTrainer();
    if (trainer != null && trainer.getEnv() != null) {
      putLiterals(values, trainer.getEnv());
    }
    return new BrokerSettings(values.getOrDefault(VIEW_IMAGE, DEFAULTS.viewImage()),
        values.getOrDefault(NETWORK_DEVICE, DEFAULTS.networkDevice()),
        values.getOrDefault(QUEUE_POLICY, DEFAULTS.queuePolicy()));
  }

  private static void putLiterals(Map<String, String> values, List<EnvVar> env) {
    env.stream()
        .filter(e -> NAMES.contains(e.getName()) && e.getValue() != null)
        .forEach(e -> values.put(e.getName(), e.getValue()));
  }
}
