package io.kftrainer.optimization;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kftrainer.api.v1alpha1.CategoricalSpace;
import io.kftrainer.api.v1alpha1.GridAlgorithm;
import io.kftrainer.api.v1alpha1.LogUniformSpace;
import io.kftrainer.api.v1alpha1.Metric;
import io.kftrainer.api.v1alpha1.Objective;
import io.kftrainer.api.v1alpha1.OptimizationJob;
import io.kftrainer.api.v1alpha1.OptimizationJobSpec;
import io.kftrainer.api.v1alpha1.Parameter;
import io.kftrainer.api.v1alpha1.RandomAlgorithm;
import io.kftrainer.api.v1alpha1.RuntimeRef;
import io.kftrainer.api.v1alpha1.SearchAlgorithm;
import io.kftrainer.api.v1alpha1.SearchSpace;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainJobSpec;
import io.kftrainer.api.v1alpha1.TrainJobStatus;
import io.kftrainer.api.v1alpha1.TrainJobTemplateSpec;
import io.kftrainer.api.v1alpha1.Trainer;
import io.kftrainer.api.v1alpha1.TrainerStatus;
import io.kftrainer.api.v1alpha1.UniformSpace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Test fixtures: valid OptimizationJobs and trial TrainJobs in the states the planner reads. */
final class Specs {

  static final String NAMESPACE = "team";
  static final String UID = "6f1c2b9e-3a4d-4c1e-9f00-1234567890ab";

  private Specs() {
  }

  static Parameter uniform(String name, String min, String max) {
    return new Parameter().withName(name).withSearchSpace(new SearchSpace()
        .withUniform(new UniformSpace().withMin(min).withMax(max).withType("Float")));
  }

  static Parameter uniformInt(String name, String min, String max) {
    return new Parameter().withName(name).withSearchSpace(new SearchSpace()
        .withUniform(new UniformSpace().withMin(min).withMax(max).withType("Int")));
  }

  static Parameter logUniform(String name, String min, String max) {
    return new Parameter().withName(name).withSearchSpace(new SearchSpace()
        .withLogUniform(new LogUniformSpace().withMin(min).withMax(max).withType("Float")));
  }

  static Parameter logUniformInt(String name, String min, String max) {
    return new Parameter().withName(name).withSearchSpace(new SearchSpace()
        .withLogUniform(new LogUniformSpace().withMin(min).withMax(max).withType("Int")));
  }

  static Parameter categorical(String name, String... choices) {
    return new Parameter().withName(name).withSearchSpace(new SearchSpace()
        .withCategorical(new CategoricalSpace().withChoices(Arrays.asList(choices))));
  }

  static OptimizationJobSpec random(Long seed, int numTrials, int parallelTrials, Parameter... parameters) {
    return spec(new SearchAlgorithm().withRandom(new RandomAlgorithm().withSeed(seed)), numTrials, parallelTrials,
        parameters);
  }

  static OptimizationJobSpec grid(int numTrials, int parallelTrials, Parameter... parameters) {
    return spec(new SearchAlgorithm().withGrid(new GridAlgorithm()), numTrials, parallelTrials, parameters);
  }

  static OptimizationJobSpec spec(SearchAlgorithm algorithm, int numTrials, int parallelTrials,
      Parameter... parameters) {
    return new OptimizationJobSpec()
        .withObjectives(List.of(new Objective().withMetric("loss").withDirection("Minimize")))
        .withSearchAlgorithm(algorithm)
        .withParameters(new ArrayList<>(List.of(parameters)))
        .withNumTrials(numTrials)
        .withParallelTrials(parallelTrials)
        .withTrainJobTemplate(new TrainJobTemplateSpec().withSpec(new TrainJobSpec()
            .withRuntimeRef(new RuntimeRef().withName("torch-distributed"))
            .withTrainer(new Trainer().withCommand(List.of("python3", "train.py")))));
  }

  static OptimizationJob job(String name, OptimizationJobSpec spec) {
    OptimizationJob job = new OptimizationJob();
    ObjectMeta metadata = new ObjectMeta();
    metadata.setName(name);
    metadata.setNamespace(NAMESPACE);
    metadata.setUid(UID);
    job.setMetadata(metadata);
    job.setSpec(spec);
    return job;
  }

  /** A trial TrainJob that runs, optionally having reported {@code progress} and {@code loss}. */
  static TrainJob running(TrainJob created, Integer progress, String loss) {
    TrainJob trainJob = io.kftrainer.api.Copies.deepCopy(created);
    if (progress != null || loss != null) {
      TrainerStatus reported = new TrainerStatus().withProgressPercentage(progress)
          .withLastUpdatedTime("2026-11-24T10:00:00Z")
          .withMetrics(loss == null ? null : List.of(new Metric().withName("loss").withValue(loss)));
      trainJob.setStatus(new TrainJobStatus().withTrainerStatus(reported));
    }
    return trainJob;
  }

  /** The trial TrainJob ended with condition {@code type} (Complete or Failed) at {@code time}, reporting {@code loss}. */
  static TrainJob ended(TrainJob created, String type, String time, String loss) {
    TrainJob trainJob = running(created, loss == null ? null : 100, loss);
    if (trainJob.getStatus() == null) {
      trainJob.setStatus(new TrainJobStatus());
    }
    Condition condition = new Condition();
    condition.setType(type);
    condition.setStatus("True");
    condition.setReason(type.equals("Complete") ? "AllJobsCompleted" : "FailedJobs");
    condition.setMessage(type.equals("Complete") ? "jobset completed successfully"
        : "jobset failed due to one or more job failures");
    condition.setLastTransitionTime(time);
    trainJob.getStatus().setConditions(List.of(condition));
    return trainJob;
  }
}
