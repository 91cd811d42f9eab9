package ${package};

import com.google.auto.service.AutoService;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.Configurable;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.framework.spi.ValidationContext;

/** Rejects a TrainJob that would run on more nodes than the administrator allows. */
@AutoService(Plugin.class)
public final class NodeQuotaValidation implements CustomValidation, Configurable<NodeQuota> {

  public static final String NAME = "${pluginName}";

  private volatile NodeQuota quota = new NodeQuota(null);

  @Override public String name() { return NAME; }

  @Override public Class<NodeQuota> configType() { return NodeQuota.class; }

  /** Called once at start-up with this plugin's section of --plugin-config (or the defaults). */
  @Override public void configure(NodeQuota config) { this.quota = config; }

  @Override
  public ValidationResult validate(ValidationContext context) {
    int numNodes = context.info().numNodes(context.trainJob());
    if (numNodes <= quota.maxNodes()) {
      return ValidationResult.ok();
    }
    return ValidationResult.of(FieldError.invalid(FieldPath.of("spec", "trainer", "numNodes"), numNodes,
        "must be at most " + quota.maxNodes() + " (node quota)"));
  }
}
