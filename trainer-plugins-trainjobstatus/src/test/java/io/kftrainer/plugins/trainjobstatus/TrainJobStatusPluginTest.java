package io.kftrainer.plugins.trainjobstatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.plugins.jobset.JobSetPlugin;
import io.kftrainer.testkit.Fixtures;
import io.kftrainer.testkit.Golden;
import io.kftrainer.testkit.TestPipeline;
import io.kftrainer.testkit.Yaml;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * The whole build with the JobSet plugin: the trainer job's containers get upstream's env and projected volume, and
 * the TrainJob gets its {@code <trainjob>-tls-config} ConfigMap with the webhook CA ({@code golden/}).
 */
class TrainJobStatusPluginTest {

  private static final String CA = "-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n";
  private static final Secret WEBHOOK_SECRET = secret("kubeflow-system", "kubeflow-trainer-webhook-cert",
      Map.of("ca.crt", CA, "tls.crt", "serving", "tls.key", "key"));

  @Test
  void isDiscoveredWithUpstreamsNameAndItsOrder() {
    assertThat(ServiceLoader.load(Plugin.class).stream().map(ServiceLoader.Provider::get))
        .filteredOn(plugin -> plugin instanceof TrainJobStatusPlugin)
        .singleElement()
        .satisfies(plugin -> {
          assertThat(plugin.name()).isEqualTo("TrainJobStatus");
          assertThat(plugin.order()).isEqualTo(250);
        });
  }

  @Test
  void injectsEnvAndProjectedVolumeIntoEveryTrainerContainerAndBuildsTheCaConfigMap() {
    TrainJob trainJob = trainJob();
    String before = Yaml.dump(trainJob);

    List<HasMetadata> objects = pipeline(enabled(), WEBHOOK_SECRET).objects(runtime(), trainJob);

    Golden.assertMatches(objects, "golden/enabled.yaml");
    assertThat(Yaml.dump(trainJob)).isEqualTo(before);
  }

  @Test
  void theUrlIsTheConfiguredServerPlusTheTrainJobsStatusPath() {
    TrainJobStatusSettings local = new TrainJobStatusSettings(true, "https://127.0.0.1:41234/", null, null);

    List<HasMetadata> objects = pipeline(local, WEBHOOK_SECRET).objects(runtime(), trainJob());

    assertThat(Yaml.dump(objects.get(objects.size() - 1))).contains("value: https://127.0.0.1:41234/apis/"
        + "trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs/test-job/status");
  }

  @Test
  void disabledItChangesNothing() {
    List<HasMetadata> withPlugin = pipeline(TrainJobStatusSettings.defaults(), WEBHOOK_SECRET)
        .objects(runtime(), trainJob());
    List<HasMetadata> without = TestPipeline.of(new JobSetPlugin()).objects(runtime(), trainJob());

    assertThat(Yaml.dumpAll(withPlugin)).isEqualTo(Yaml.dumpAll(without));
  }

  @Test
  void aMissingWebhookSecretFailsTheBuildWithUpstreamsMessage() {
    assertThatThrownBy(() -> pipeline(enabled()).build(runtime(), trainJob()))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("plugin TrainJobStatus failed in ComponentBuilder")
        .hasMessageContaining("failed to look up status server tls secret: Secret "
            + "kubeflow-system/kubeflow-trainer-webhook-cert not found");
  }

  @Test
  void aWebhookSecretWithoutCaCrtFailsTheBuildWithUpstreamsMessage() {
    Secret noCa = secret("kubeflow-system", "kubeflow-trainer-webhook-cert", Map.of("other-key", "other-data"));

    assertThatThrownBy(() -> pipeline(enabled(), noCa).build(runtime(), trainJob()))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("failed to find status server ca.crt in tls secret "
            + "kubeflow-system/kubeflow-trainer-webhook-cert");
  }

  @Test
  void theSecretIsReadWhereTheSettingsSay() {
    Secret elsewhere = secret("trainer", "status-ca", Map.of("ca.crt", "other CA"));
    TrainJobStatusSettings settings = new TrainJobStatusSettings(true, null, "trainer", "status-ca");

    List<HasMetadata> objects = pipeline(settings, elsewhere).objects(runtime(), trainJob());

    assertThat(objects).filteredOn(ConfigMap.class::isInstance).map(ConfigMap.class::cast).singleElement()
        .satisfies(cm -> assertThat(cm.getData()).containsExactly(Map.entry("ca.crt", "other CA")));
  }

  @Test
  void settingsRejectWhatCannotReachTheServer() {
    assertThatThrownBy(() -> new TrainJobStatusSettings(true, "http://svc:10443", null, null))
        .hasMessageContaining("serverUrl must be an https URL");
    assertThatThrownBy(() -> new TrainJobStatusSettings(true, "https://svc:10443/status", null, null))
        .hasMessageContaining("serverUrl must have no path");
    assertThatThrownBy(() -> new TrainJobStatusSettings(true, null, " ", null))
        .hasMessageContaining("caSecretNamespace");
  }

  @Test
  void defaultsAreUpstreams() {
    TrainJobStatusSettings defaults = TrainJobStatusSettings.defaults();

    assertThat(defaults.enabled()).isFalse();
    assertThat(defaults.serverUrl()).isEqualTo("https://kubeflow-trainer-controller-manager.kubeflow-system.svc:10443");
    assertThat(defaults.caSecretNamespace()).isEqualTo("kubeflow-system");
    assertThat(defaults.caSecretName()).isEqualTo("kubeflow-trainer-webhook-cert");
  }

  private static TrainJobStatusSettings enabled() {
    return new TrainJobStatusSettings(true, null, null, null);
  }

  private static TestPipeline pipeline(TrainJobStatusSettings settings, HasMetadata... cluster) {
    TrainJobStatusPlugin plugin = new TrainJobStatusPlugin();
    plugin.configure(settings);
    return TestPipeline.of(plugin, new JobSetPlugin()).withCluster(cluster);
  }

  private static RuntimeSource runtime() {
    return Fixtures.runtime(Fixtures.resource("trainjobstatus/runtime.yaml"));
  }

  private static TrainJob trainJob() {
    return Fixtures.trainJob(Fixtures.resource("trainjobstatus/trainjob.yaml"));
  }

  private static Secret secret(String namespace, String name, Map<String, String> data) {
    SecretBuilder secret = new SecretBuilder().withNewMetadata().withNamespace(namespace).withName(name)
        .endMetadata();
    data.forEach((key, value) -> secret.addToData(key,
        Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))));
    return secret.build();
  }
}
