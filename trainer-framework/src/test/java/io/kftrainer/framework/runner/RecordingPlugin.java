package io.kftrainer.framework.runner;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kftrainer.framework.model.FieldError;
import io.kftrainer.framework.model.FieldPath;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.ComponentBuilder;
import io.kftrainer.framework.spi.CustomValidation;
import io.kftrainer.framework.spi.EnforceMLPolicy;
import io.kftrainer.framework.spi.EnforcePodGroupPolicy;
import io.kftrainer.framework.spi.EnforcePodSpec;
import io.kftrainer.framework.spi.PreBuildSync;
import io.kftrainer.framework.spi.ValidationContext;
import java.util.List;

/** A plugin on every build and validation extension point that records each call in a shared journal. */
final class RecordingPlugin implements EnforceMLPolicy, EnforcePodGroupPolicy, EnforcePodSpec, PreBuildSync,
    ComponentBuilder, CustomValidation {

  private final String name;
  private final int order;
  private final List<String> journal;

  RecordingPlugin(String name, int order, List<String> journal) {
    this.name = name;
    this.order = order;
    this.journal = journal;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int order() {
    return order;
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    journal.add("EnforceMLPolicy:" + name);
  }

  @Override
  public void enforcePodGroupPolicy(BuildContext context) {
    journal.add("EnforcePodGroupPolicy:" + name);
  }

  @Override
  public void enforcePodSpec(BuildContext context) {
    journal.add("EnforcePodSpec:" + name);
  }

  @Override
  public void preBuildSync(BuildContext context) {
    journal.add("PreBuildSync:" + name);
  }

  @Override
  public List<HasMetadata> build(BuildContext context) {
    journal.add("ComponentBuilder:" + name);
    ConfigMap configMap = new ConfigMap();
    configMap.setMetadata(new ObjectMeta());
    configMap.getMetadata().setName(context.trainJob().getMetadata().getName() + "-" + name);
    return List.of(configMap);
  }

  @Override
  public ValidationResult validate(ValidationContext context) {
    journal.add("CustomValidation:" + name);
    return new ValidationResult(
        List.of(FieldError.invalid(FieldPath.of("spec", "trainer"), null, "rejected by " + name)),
        List.of("warning from " + name));
  }
}
