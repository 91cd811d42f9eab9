package io.kftrainer.cli.render;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kftrainer.api.v1alpha1.ClusterTrainingRuntime;
import io.kftrainer.api.v1alpha1.TrainJob;
import io.kftrainer.api.v1alpha1.TrainerConstants;
import io.kftrainer.api.v1alpha1.TrainingRuntime;
import io.kftrainer.framework.model.RuntimeSource;
import io.kftrainer.api.CrdDefaults;
import io.kftrainer.api.TrainJobDefaults;
import io.kftrainer.cli.yaml.Manifest;
import io.kftrainer.cli.yaml.ManifestException;
import io.kftrainer.cli.yaml.ManifestReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TrainJobs and runtimes of {@code render}'s input files, each as the API server would store it: in namespace
 * {@value #DEFAULT_NAMESPACE} when it has none (namespaced kinds; a {@code ClusterTrainingRuntime} has no
 * namespace), with the CRD defaults set. Any other kind, a document that does not fit its kind (a value of the
 * wrong type, a field the model does not know), a missing name and an object defined twice are errors, one line
 * each.
 */
record RenderInputs(List<TrainJob> trainJobs, List<RuntimeSource> runtimes, List<String> errors) {

  /** The namespace of namespaced objects without one, as for {@code kubectl apply}. */
  static final String DEFAULT_NAMESPACE = "default";

  private static final List<String> KINDS = List.of(TrainerConstants.TRAINJOB_KIND,
      TrainerConstants.TRAINING_RUNTIME_KIND, TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND);

  static RenderInputs read(List<InputFile> files) {
    Reader reader = new Reader();
    for (InputFile file : files) {
      try {
        ManifestReader.read(file.text(), file.source()).forEach(reader::add);
      } catch (ManifestException e) {
        reader.errors.add(e.getMessage());
      }
    }
    return new RenderInputs(reader.trainJobs, reader.runtimes, reader.errors);
  }

  /** {@code <Kind> <namespace>/<name>}, or {@code <Kind> <name>} for a cluster-scoped object. */
  static String subject(HasMetadata object) {
    String namespace = object.getMetadata().getNamespace();
    return object.getKind() + " " + (namespace == null ? "" : namespace + "/") + object.getMetadata().getName();
  }

  private static final class Reader {

    private final List<TrainJob> trainJobs = new ArrayList<>();
    private final List<RuntimeSource> runtimes = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final Map<String, String> locations = new HashMap<>();

    void add(Manifest manifest) {
      try {
        manifest.check();
      } catch (ManifestException e) {
        errors.add(e.getMessage());
        return;
      }
      if (!TrainerConstants.API_VERSION.equals(manifest.apiVersion()) || !KINDS.contains(manifest.kind())) {
        errors.add(manifest.location() + ": " + manifest.apiVersion() + " " + manifest.kind() + " is not supported; "
            + "render reads " + TrainerConstants.API_VERSION + " TrainJob, TrainingRuntime and ClusterTrainingRuntime");
        return;
      }
      HasMetadata object;
      try {
        object = manifest.as(typeOf(manifest.kind()));
      } catch (ManifestException e) {
        errors.add(subjectOf(manifest) + ": " + e.detail());
        return;
      }
      List<String> unknownFields = manifest.unknownFields(object);
      if (!unknownFields.isEmpty()) {
        unknownFields.forEach(path -> errors.add(subjectOf(manifest) + ": " + path + ": unknown field"));
        return;
      }
      if (object.getMetadata() == null || object.getMetadata().getName() == null
          || object.getMetadata().getName().isEmpty()) {
        errors.add(manifest.location() + ": " + manifest.kind() + ": metadata.name: Required value: name is required");
        return;
      }
      setNamespace(object);
      String subject = RenderInputs.subject(object);
      Optional<String> rejection = CrdSchemas.rejection(object);
      if (rejection.isPresent()) {
        errors.add(rejection.get());
        return;
      }
      String previous = locations.putIfAbsent(subject, manifest.location());
      if (previous != null) {
        errors.add(subject + ": defined more than once (" + previous + "; " + manifest.location() + ")");
        return;
      }
      if (object instanceof TrainJob trainJob) {
        trainJobs.add(TrainJobDefaults.defaulted(trainJob));
      } else {
        CrdDefaults.applyTo(object);
        RuntimeSource runtime = object instanceof TrainingRuntime namespaced
            ? RuntimeSource.of(namespaced) : RuntimeSource.of((ClusterTrainingRuntime) object);
        runtimes.add(runtime);
      }
    }

    /** The object's subject when it has a name, else where it is. */
    private static String subjectOf(Manifest manifest) {
      if (manifest.name().isEmpty()) {
        return manifest.location() + ": " + manifest.kind();
      }
      if (manifest.kind().equals(TrainerConstants.CLUSTER_TRAINING_RUNTIME_KIND)) {
        return manifest.kind() + " " + manifest.name();
      }
      String namespace = manifest.namespace().isEmpty() ? DEFAULT_NAMESPACE : manifest.namespace();
      return manifest.kind() + " " + namespace + "/" + manifest.name();
    }

    private static Class<? extends HasMetadata> typeOf(String kind) {
      return switch (kind) {
        case TrainerConstants.TRAINJOB_KIND -> TrainJob.class;
        case TrainerConstants.TRAINING_RUNTIME_KIND -> TrainingRuntime.class;
        default -> ClusterTrainingRuntime.class;
      };
    }

    private static void setNamespace(HasMetadata object) {
      if (object instanceof ClusterTrainingRuntime) {
        object.getMetadata().setNamespace(null);
      } else if (object.getMetadata().getNamespace() == null || object.getMetadata().getNamespace().isEmpty()) {
        object.getMetadata().setNamespace(DEFAULT_NAMESPACE);
      }
    }
  }
}
