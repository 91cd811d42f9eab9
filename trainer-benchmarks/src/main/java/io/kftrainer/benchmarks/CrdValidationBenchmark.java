package io.kftrainer.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kftrainer.schema.CustomResourceValidator;
import io.kftrainer.schema.SchemaFieldError;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the embedded API server and {@code render} pay to validate one TrainJob against the real CRD's schema and
 * its CEL rules (each evaluation metered for kube's cost limits), on create and on update (the transition rules
 * too), against a floor: one Jackson serialize + parse of the same object, which every request pays anyway.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"})
public class CrdValidationBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TRAINJOB = """
      {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
       "metadata": {"name": "torch-cpu", "namespace": "default", "labels": {"team": "a"}},
       "spec": {"runtimeRef": {"apiGroup": "trainer.kubeflow.org", "kind": "ClusterTrainingRuntime",
                               "name": "torch-distributed"},
                "initializer": {"dataset": {"storageUri": "hf://tatsu-lab/alpaca"},
                                "model": {"storageUri": "hf://meta-llama/Llama-3.2-1B"}},
                "trainer": {"numNodes": 2, "numProcPerNode": "auto", "image": "pytorch/pytorch:2.5.0",
                            "command": ["torchrun", "train.py"], "args": ["--epochs", "3"],
                            "env": [{"name": "LR", "value": "0.001"}, {"name": "BATCH", "value": "32"}],
                            "resourcesPerNode": {"limits": {"cpu": "4", "memory": "8Gi"}}},
                "managedBy": "trainer.kubeflow.org/trainjob-controller", "suspend": false}}""";

  private CustomResourceValidator validator;
  private JsonNode trainJob;
  private JsonNode old;

  @Setup
  public void setUp() throws IOException {
    String resource = "META-INF/fabric8/trainjobs.trainer.kubeflow.org-v1.yml";
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
      validator = CustomResourceValidator.of(List.of(Serialization.unmarshal(in, CustomResourceDefinition.class)));
    }
    trainJob = JSON.readTree(TRAINJOB);
    old = trainJob.deepCopy();
    List<SchemaFieldError> errors = validator.validate(trainJob, old);
    if (!errors.isEmpty()) {
      throw new IllegalStateException("the benchmark's TrainJob must be valid: " + errors);
    }
  }

  @Benchmark
  public List<SchemaFieldError> create() {
    return validator.validate(trainJob, null);
  }

  @Benchmark
  public List<SchemaFieldError> update() {
    return validator.validate(trainJob, old);
  }

  @Benchmark
  public JsonNode floor() throws IOException {
    return JSON.readTree(JSON.writeValueAsBytes(trainJob));
  }
}
