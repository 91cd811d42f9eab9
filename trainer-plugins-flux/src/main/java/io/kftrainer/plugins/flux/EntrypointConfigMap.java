package io.kftrainer.plugins.flux;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ConfigMap {@code <trainjob>-flux-entrypoint}, mounted read-only at {@value FluxPodSet#CONFIG_PATH} in the
 * {@code flux-installer} init container and in container {@code node}:
 *
 * <ul>
 *   <li>{@value #INIT}: run by {@code flux-installer} (the Flux view image) on every pod; writes the host list and
 *       the broker configuration ({@code broker.toml}) into the shared volume and copies the Flux view there;</li>
 *   <li>{@value #ENTRYPOINT}: container {@code node}'s command; encodes the node's resources ({@code flux R encode}),
 *       installs the curve certificate, then starts the lead broker with {@code flux run <flags> <command>} on
 *       pod 0 and follower brokers elsewhere (they retry until the lead is up).</li>
 * </ul>
 */
final class EntrypointConfigMap {

  static final String ENTRYPOINT = "entrypoint.sh";
  static final String INIT = "init.sh";
  /** Where the Flux view image keeps Flux: the root of its view. */
  private static final String FLUX_ROOT = "/opt/view";
  private static final String NAME_SUFFIX = "-flux-entrypoint";

  private static final Template INIT_TEMPLATE = Template.load(INIT);
  private static final Template ENTRYPOINT_TEMPLATE = Template.load(ENTRYPOINT);
  private static final Template BROKER_TEMPLATE = Template.load("broker.toml");

  private EntrypointConfigMap() {
  }

  static String name(String trainJobName) {
    return trainJobName + NAME_SUFFIX;
  }

  static ConfigMap build(FluxJob job) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(ENTRYPOINT, entrypointScript(job));
    data.put(INIT, initScript(job));
    return new ConfigMapBuilder()
        .withNewMetadata().withName(name(job.name())).endMetadata()
        .withData(data)
        .build();
  }

  static String initScript(FluxJob job) {
    // upstream's mainHost of init.sh is "<name>-0", unlike the entrypoint's: the script only prints it
    return INIT_TEMPLATE.render(Map.of(
        "fluxRoot", FLUX_ROOT,
        "mainHost", job.name() + "-0",
        "hosts", Hostlist.of(job.name(), job.nodes()),
        "brokerConfig", brokerConfig(job)));
  }

  /**
   * Brokers bind to the settings' network device and reach each other by pod DNS name ({@code %h} and {@code %p}
   * are Flux's own placeholders for host and port).
   */
  static String brokerConfig(FluxJob job) {
    String domain = job.subdomain() + "." + job.namespace() + ".svc.cluster.local";
    return BROKER_TEMPLATE.render(Map.of(
        "bind", "tcp://" + job.settings().networkDevice() + ":%p",
        "connect", "tcp://%h." + domain + ":%p",
        "hosts", Hostlist.of(job.name(), job.nodes()),
        "queuePolicy", job.settings().queuePolicy()));
  }

  /**
   * The node's resources for {@code flux R encode} ({@code --cores}, and {@code --gpu} with GPUs) and the flags of
   * {@code flux run}: {@code -N} nodes, {@code -n} tasks in all, {@code -g} GPUs per task.
   */
  static String entrypointScript(FluxJob job) {
    String resources = "--cores=" + Hostlist.range(job.tasksPerNode(), 0);
    String flags = "-N " + job.nodes() + " -n " + (long) job.tasksPerNode() * job.nodes();
    if (job.gpusPerNode() > 0) {
      resources += " --gpu=" + Hostlist.range(job.gpusPerNode(), 0);
      flags += " -g " + job.gpusPerNode();
    }
    return ENTRYPOINT_TEMPLATE.render(Map.of(
        "resourceSpec", resources,
        "mainHost", job.leadBroker(),
        "flags", flags));
  }
}
