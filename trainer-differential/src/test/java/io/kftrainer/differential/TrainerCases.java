package io.kftrainer.differential;

import io.kftrainer.lab.LabBinaries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The inputs: our examples, upstream's, and cases written here for what the examples do not reach. */
final class TrainerCases {

  /** Examples whose pods wait for something the lab does not run: a node pool, a gang scheduler, Volcano. */
  private static final Set<String> NOT_TERMINAL = Set.of("ours/torch-runtime-patches.yaml",
      "ours/torch-coscheduling.yaml", "upstream/02-runtime-patches.yaml", "upstream/04-volcano-integration.yaml");
  /** Examples of no upstream API: OptimizationJobs are ours alone (hyperparameter-optimization.md). */
  private static final Set<String> SKIPPED = Set.of("hpo-torch.yaml");
  private static final String RESUME = "{\"spec\":{\"suspend\":false}}";

  private TrainerCases() {
  }

  static List<TrainerCase> all(LabBinaries lab) {
    List<TrainerCase> cases = new ArrayList<>();
    examples(cases, "ours", LabBinaries.projectDir().resolve("examples"));
    examples(cases, "upstream", lab.data().resolve("upstream-examples"));
    cases.add(TrainerCase.ofYaml("mpi/launcher-as-node", mpiRuntime(true, false) + mpiTrainJob(), "mpi"));
    cases.add(TrainerCase.ofYaml("mpi/separate-launcher", mpiRuntime(false, false) + mpiTrainJob(), "mpi"));
    cases.add(TrainerCase.ofYaml("mpi/launcher-listed-first", mpiRuntime(true, true) + mpiTrainJob(), "mpi"));
    cases.add(TrainerCase.ofYaml("suspend/resume", torchTrainJob("suspended", "  suspend: true\n"), "suspended")
        .then("Suspended", RESUME));
    cases.add(TrainerCase.ofYaml("suspend/runtime-patch-then-resume",
        torchTrainJob("patched", "  suspend: true\n"), "patched")
        .then("Suspended", """
            {"spec":{"runtimePatches":[{"manager":"example.com/platform","trainingRuntimeSpec":{"template":{
              "metadata":{"labels":{"example.com/team":"a"}},"spec":{"replicatedJobs":[{"name":"node",
              "template":{"spec":{"template":{"metadata":{"annotations":{"example.com/patched":"yes"}},
              "spec":{"tolerations":[{"key":"example.com/spot","operator":"Exists","effect":"NoSchedule"}]}}}}}]}}}}]}}
            """)
        .then("Suspended", RESUME));
    cases.add(TrainerCase.ofYaml("deadline/active-deadline-seconds", torchTrainJob("late", """
          activeDeadlineSeconds: 10
          runtimePatches:
          - manager: example.com/platform
            trainingRuntimeSpec:
              template:
                spec:
                  replicatedJobs:
                  - name: node
                    template:
                      spec:
                        template:
                          spec:
                            nodeSelector:
                              example.com/node-pool: none
        """), "late").withWaitingPods());
    cases.add(TrainerCase.ofYaml("invalid/runtime-torch-and-mpi", """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: both
        spec:
          mlPolicy:
            numNodes: 1
            torch: {}
            mpi: {}
          template:
            spec:
              replicatedJobs:
              - name: node
                template:
                  spec:
                    template:
                      spec:
                        containers:
                        - name: node
                          image: busybox
        """, null));
    cases.add(TrainerCase.ofYaml("runtime/two-trainer-jobs", """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: two-trainers
        spec:
          mlPolicy:
            numNodes: 1
            torch: {}
          template:
            spec:
              replicatedJobs:
              - name: node
                template:
                  metadata:
                    labels:
                      trainer.kubeflow.org/trainjob-ancestor-step: trainer
                  spec:
                    template:
                      spec:
                        containers:
                        - name: node
                          image: busybox
              - name: other
                template:
                  metadata:
                    labels:
                      trainer.kubeflow.org/trainjob-ancestor-step: trainer
                  spec:
                    template:
                      spec:
                        containers:
                        - name: node
                          image: busybox
        """, null));
    cases.add(TrainerCase.ofYaml("invalid/no-runtime", """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: orphan
        spec:
          runtimeRef:
            name: no-such-runtime
        """, "orphan").refused());
    cases.add(TrainerCase.ofYaml("invalid/runtime-patch-unknown-job", torchTrainJob("unknown-job", """
          runtimePatches:
          - manager: example.com/platform
            trainingRuntimeSpec:
              template:
                spec:
                  replicatedJobs:
                  - name: no-such-job
                    template:
                      spec:
                        template:
                          spec:
                            nodeSelector:
                              a: b
        """), "unknown-job").refused());
    return cases;
  }

  private static void examples(List<TrainerCase> cases, String source, Path dir) {
    try (var files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        if (SKIPPED.contains(file.getFileName().toString())) {
          continue;
        }
        String name = source + "/" + file.getFileName();
        String yaml = Files.readString(file);
        TrainerCase c = TrainerCase.ofYaml(name, yaml, trainJobName(yaml));
        c = NOT_TERMINAL.contains(name) ? c.notTerminal() : c;
        // upstream's Kueue example is suspended for Kueue to admit: resumed as Kueue would
        cases.add(yaml.contains("\n  suspend: true") ? c.then("Suspended", RESUME) : c);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The name of the first TrainJob of {@code yaml}, or null. */
  static String trainJobName(String yaml) {
    for (String document : yaml.split("(?m)^---\\s*$")) {
      if (document.matches("(?s).*(?m)^kind: TrainJob\\s*$.*")) {
        var name = Pattern.compile("(?m)^metadata:\\s*\\n(?:\\s+.*\\n)*?\\s+name: (\\S+)")
            .matcher(document);
        if (name.find()) {
          return name.group(1);
        }
      }
    }
    return null;
  }

  private static String torchTrainJob(String name, String spec) {
    return """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: %s
        spec:
          runtimeRef:
            name: torch-distributed
          trainer:
            numNodes: 2
            command: ["torchrun", "train.py"]
        %s""".formatted(name, spec);
  }

  /** An MPI runtime as upstream's deepspeed-distributed: node, then launcher (or the launcher first). */
  private static String mpiRuntime(boolean launcherAsNode, boolean launcherFirst) {
    String launcher = """
          - name: launcher
            template:
              metadata:
                labels:
                  trainer.kubeflow.org/trainjob-ancestor-step: trainer
              spec:
                template:
                  spec:
                    containers:
                    - name: node
                      image: mpioperator/mpi-pi:openmpi
                      command: ["mpirun", "/home/mpiuser/pi"]
        """;
    String node = """
          - name: node
            template:
              spec:
                template:
                  spec:
                    containers:
                    - name: node
                      image: mpioperator/mpi-pi:openmpi
                      command: ["/usr/sbin/sshd", "-De", "-f", "/home/mpiuser/.sshd_config"]
        """;
    return """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainingRuntime
        metadata:
          name: mpi
        spec:
          mlPolicy:
            numNodes: 2
            mpi:
              numProcPerNode: 2
              mpiImplementation: OpenMPI
              sshAuthMountPath: /home/mpiuser/.ssh
              runLauncherAsNode: %s
          template:
            spec:
              network:
                publishNotReadyAddresses: true
              successPolicy:
                operator: All
                targetReplicatedJobs:
                - launcher
              replicatedJobs:
        %s---
        """.formatted(launcherAsNode, (launcherFirst ? launcher + node : node + launcher).indent(4));
  }

  private static String mpiTrainJob() {
    return """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: mpi
        spec:
          runtimeRef:
            apiGroup: trainer.kubeflow.org
            kind: TrainingRuntime
            name: mpi
          trainer:
            numNodes: 3
        """;
  }
}
