package io.kftrainer.lab.differential;

/** The objects the cases create, as YAML: built-in kinds and TrainJobs of the project's CRD. */
final class Manifests {

  static final String TRAINJOB_API_VERSION = "trainer.kubeflow.org/v1alpha1";

  private Manifests() {
  }

  static String configMap(String name, String labels, String data) {
    return """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: %s
          labels: {%s}
        data: {%s}
        """.formatted(name, labels, data);
  }

  static String trainJob(String name, int numNodes) {
    return """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: %s
          labels: {app: %s}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer: {numNodes: %d}
        """.formatted(name, name, numNodes);
  }

  static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: worker
        labels: {app: worker}
      spec:
        containers:
        - name: main
          image: busybox:1.36
          command: [sh, -c, 'echo hello']
          env:
          - {name: A, value: "1"}
      """;

  static final String JOB = """
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: pi
      spec:
        template:
          spec:
            restartPolicy: Never
            containers:
            - name: pi
              image: busybox:1.36
              command: ['true']
      """;

  static final String POD_TEMPLATE = """
      apiVersion: v1
      kind: PodTemplate
      metadata:
        name: template
      template:
        metadata:
          labels: {app: template}
        spec:
          containers:
          - name: main
            image: busybox:1
            env:
            - {name: A, value: "1"}
            - {name: B, value: "2"}
          - name: side
            image: busybox:1
      """;

  /** A ConfigMap whose {@code data} holds one value of {@code bytes} bytes. */
  static String largeConfigMap(String name, int bytes) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  large: \"" + "x".repeat(bytes)
        + "\"\n";
  }
}
