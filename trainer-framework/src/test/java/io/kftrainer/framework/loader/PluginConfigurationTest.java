package io.kftrainer.framework.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kftrainer.framework.runner.PluginSetupException;
import io.kftrainer.framework.spi.Configurable;
import io.kftrainer.framework.spi.Plugin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigurationTest {

  public record Limit(String resource, Integer max) {
  }

  public record QuotaConfig(Integer maxNodes, List<Limit> limits) {
    public QuotaConfig {
      maxNodes = maxNodes == null ? 8 : maxNodes;
      limits = limits == null ? List.of() : limits;
      if (maxNodes < 1) {
        throw new IllegalArgumentException("maxNodes: must be at least 1, not " + maxNodes);
      }
    }
  }

  static final class Quota implements Configurable<QuotaConfig> {
    QuotaConfig config;
    int calls;

    @Override public String name() {
      return "quota";
    }

    @Override public Class<QuotaConfig> configType() {
      return QuotaConfig.class;
    }

    @Override public void configure(QuotaConfig config) {
      this.config = config;
      calls++;
    }
  }

  static final class Plain implements Plugin {
    @Override public String name() {
      return "plain";
    }
  }

  private final Quota quota = new Quota();

  @Test
  void eachConfigurablePluginGetsItsSectionBoundOnce() {
    var effective = PluginConfiguration.parse("quota:\n  maxNodes: 4\n  limits: [{resource: gpu, max: 2}]\n", "f")
        .apply(List.of(quota, new Plain()));

    assertThat(quota.calls).isEqualTo(1);
    assertThat(quota.config).isEqualTo(new QuotaConfig(4, List.of(new Limit("gpu", 2))));
    assertThat(effective).containsOnlyKeys("quota");
    assertThat(PluginConfiguration.toYaml(effective.get("quota")))
        .isEqualTo("maxNodes: 4\nlimits:\n- resource: \"gpu\"\n  max: 2\n");
  }

  @Test
  void theOperatorsSectionIsTheBaseAndTheFilesFieldsReplaceItsFields() {
    PluginConfiguration.parse("quota:\n  limits: [{resource: gpu, max: 2}]\n", "f")
        .withDefaults(Map.of("quota", Map.of("maxNodes", 3, "limits", List.of()), "absent", Map.of("x", 1)))
        .apply(List.of(quota));

    assertThat(quota.config).isEqualTo(new QuotaConfig(3, List.of(new Limit("gpu", 2))));
  }

  @Test
  void withoutAFileSectionThePluginGetsTheOperatorsSection() {
    PluginConfiguration.empty().withDefaults(Map.of("quota", Map.of("maxNodes", 5))).apply(List.of(quota));

    assertThat(quota.config).isEqualTo(new QuotaConfig(5, List.of()));
  }

  @Test
  void aPluginWithoutASectionGetsTheDefaultsOfItsType() {
    PluginConfiguration.empty().apply(List.of(quota));

    assertThat(quota.config).isEqualTo(new QuotaConfig(8, List.of()));
  }

  @Test
  void everySectionsProblemNamesThePluginAndTheFieldPathAndNothingIsConfigured() {
    String yaml = """
        quota:
          maxNode: 4
        plain: {x: 1}
        quotta: {}
        """;

    assertThatThrownBy(() -> PluginConfiguration.parse(yaml, "plugins.yaml").apply(List.of(quota, new Plain())))
        .isInstanceOf(PluginSetupException.class)
        .hasMessageContaining("(plugins.yaml)")
        .hasMessageContaining("quota.maxNode: unknown field (known: limits, maxNodes)")
        .hasMessageContaining("quotta: no plugin of this name is loaded (loaded: plain, quota)")
        .hasMessageContaining("plain: this plugin takes no configuration");
    assertThat(quota.calls).isZero();
  }

  @Test
  void aWrongTypeNamesTheNestedPath() {
    assertThatThrownBy(() -> PluginConfiguration.parse("quota: {limits: [{max: lots}]}", "f").apply(List.of(quota)))
        .hasMessageContaining("quota.limits[0].max: ");
  }

  @Test
  void aValueTheTypeRejectsStopsStartUpWithTheTypesMessage() {
    assertThatThrownBy(() -> PluginConfiguration.parse("quota: {maxNodes: 0}", "f").apply(List.of(quota)))
        .hasMessageContaining("quota: maxNodes: must be at least 1, not 0");
  }

  @Test
  void aFileThatIsNotAMappingOfPluginNamesIsRejected() {
    assertThatThrownBy(() -> PluginConfiguration.parse("- quota", "f"))
        .isInstanceOf(PluginSetupException.class).hasMessageContaining("must be a mapping of plugin names");
  }
}
