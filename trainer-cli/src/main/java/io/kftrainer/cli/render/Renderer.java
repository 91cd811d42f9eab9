package io.kftrainer.cli.render;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.framework.model.ValidationResult;
import io.kftrainer.framework.runner.PhaseRunner;
import io.kftrainer.framework.runner.PluginException;
import io.kftrainer.framework.spi.ObjectLookup;
import io.kftrainer.runtime.RuntimeCatalog;
import io.kftrainer.runtime.TrainJobValidator;
import io.kftrainer.runtime.FieldErrorText;
import java.util.ArrayList;
import java.util.List;

/**
 * The objects the operator would apply for TrainJobs that do not exist yet, computed without a cluster.
 *
 * <p>For each TrainJob of the input, in input order: the runtime is resolved from the input runtimes, then the
 * shipped ones ({@link RuntimeCatalog#withShipped}); the TrainJob is validated as on admission
 * ({@link TrainJobValidator}); then {@link PhaseRunner#runBuild} runs with an empty cluster view, the same call the
 * operator makes, and its objects are taken in the order it returns them. A TrainJob that another controller
 * manages ({@code spec.managedBy}) is validated but builds nothing, as in the operator.
 *
 * <p>Errors are collected for every TrainJob, one line each: {@code <Kind> <namespace>/<name>: <field path>:
 * <message>} for field errors, {@code <Kind> <namespace>/<name>: plugin <name> failed in <phase>: <message>} for a
 * failing plugin, and {@code <file>, document <n>: ...} when there is no object to name. When there is any error,
 * no objects are returned.
 */
public final class Renderer {

  private final PhaseRunner runner;

  public Renderer(PhaseRunner runner) {
    this.runner = runner;
  }

  public RenderResult render(List<InputFile> files) {
    RenderInputs inputs = RenderInputs.read(files);
    if (!inputs.errors().isEmpty()) {
      return new RenderResult(List.of(), inputs.errors(), List.of());
    }
    RuntimeCatalog runtimes = RuntimeCatalog.withShipped(inputs.runtimes());
    TrainJobValidator validator = new TrainJobValidator(runtimes, runner);
    List<HasMetadata> objects = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    for (TrainJob trainJob : inputs.trainJobs()) {
      String subject = RenderInputs.subject(trainJob);
      try {
        ValidationResult validation = validator.validate(null, trainJob, ObjectLookup.empty());
        validation.warnings().forEach(warning -> warnings.add(subject + ": " + warning));
        validation.errors().forEach(error -> errors.add(subject + ": " + FieldErrorText.describe(error)));
        if (!validation.isValid()) {
          continue;
        }
        if (!TrainerConstants.DEFAULT_MANAGED_BY.equals(trainJob.getSpec().getManagedBy())) {
          warnings.add(subject + ": spec.managedBy is " + trainJob.getSpec().getManagedBy()
              + ", so this operator creates nothing for it");
          continue;
        }
        RuntimeSource runtime = runtimes.resolve(trainJob).orElseThrow();
        objects.addAll(runner.runBuild(runtime, trainJob, ObjectLookup.empty()).objects());
      } catch (PluginException e) {
        errors.add(subject + ": " + e.getMessage());
      }
    }
    return errors.isEmpty()
        ? new RenderResult(objects, List.of(), warnings)
        : new RenderResult(List.of(), errors, warnings);
  }
}
