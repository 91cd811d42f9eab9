package io.kftrainer.cli;

import io.kftrainer.local.LocalMode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kftrainer.cli.yaml.Manifest;
import io.kftrainer.cli.yaml.ManifestException;
import io.kftrainer.cli.yaml.ManifestReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code local --apply}: creates or updates the objects of YAML files (multi-document) through the API, so that
 * admission webhooks run as for {@code kubectl apply}. A directory stands for its {@code .yaml}, {@code .yml} and
 * {@code .json} files, in name order, not recursively (as {@code kubectl apply -f DIR}).
 *
 * <p>An absent object is created, an existing one updated by server-side apply (field manager
 * {@value LocalMode#FIELD_MANAGER}). Each object's outcome is reported on its own line, in kubectl's words
 * ({@code trainjob.trainer.kubeflow.org/mnist created}; {@code Error from server (Invalid): error when creating
 * "x.yaml": ...}); a failure does not stop the others.
 */
final class ManifestApplier {

  /** The outcome for one object (or one unreadable file). */
  record Outcome(String source, String object, boolean applied, String message) {
  }

  private final KubernetesClient client;
  private final Consumer<String> out;
  private final Consumer<String> err;

  ManifestApplier(KubernetesClient client, Consumer<String> out, Consumer<String> err) {
    this.client = Objects.requireNonNull(client, "client");
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
  }

  List<Outcome> apply(List<Path> paths) {
    List<Outcome> outcomes = new ArrayList<>();
    for (Path path : paths) {
      for (Path file : files(path, outcomes)) {
        applyFile(file, outcomes);
      }
    }
    return outcomes;
  }

  private List<Path> files(Path path, List<Outcome> outcomes) {
    if (!Files.isDirectory(path)) {
      return List.of(path);
    }
    try (Stream<Path> listing = Files.list(path)) {
      return listing.filter(Files::isRegularFile)
          .filter(f -> f.getFileName().toString().matches(".*\\.(ya?ml|json)"))
          .sorted()
          .toList();
    } catch (IOException e) {
      report(outcomes, new Outcome(path.toString(), null, false, "error: cannot list " + path + ": " + e));
      return List.of();
    }
  }

  private void applyFile(Path file, List<Outcome> outcomes) {
    List<Manifest> manifests;
    try {
      manifests = ManifestReader.read(Files.readString(file), file.toString());
    } catch (IOException e) {
      report(outcomes, new Outcome(file.toString(), null, false, "error: cannot read " + file + ": " + e));
      return;
    } catch (ManifestException e) {
      report(outcomes, new Outcome(file.toString(), null, false, "error: " + e.getMessage()));
      return;
    }
    for (Manifest manifest : manifests) {
      report(outcomes, applyOne(file, manifest));
    }
  }

  private Outcome applyOne(Path file, Manifest manifest) {
    try {
      manifest.check();
    } catch (ManifestException e) {
      return new Outcome(file.toString(), null, false, "error: " + e.getMessage());
    }
    GenericKubernetesResource object = client.getKubernetesSerialization()
        .convertValue(manifest.tree(), GenericKubernetesResource.class);
    String name = displayName(object);
    boolean exists = false;
    try {
      Resource<GenericKubernetesResource> resource = client.resource(object);
      GenericKubernetesResource current = resource.get();
      exists = current != null;
      if (!exists) {
        resource.create();
        return new Outcome(file.toString(), name, true, name + " created");
      }
      HasMetadata applied = resource.fieldManager(LocalMode.FIELD_MANAGER).forceConflicts().serverSideApply();
      boolean changed = !Objects.equals(applied.getMetadata().getResourceVersion(),
          current.getMetadata().getResourceVersion());
      return new Outcome(file.toString(), name, true, name + (changed ? " configured" : " unchanged"));
    } catch (KubernetesClientException e) {
      return new Outcome(file.toString(), name, false, errorFromServer(e, exists ? "applying" : "creating", file));
    }
  }

  /** kubectl's {@code Error from server (Reason): error when creating "file": message}. */
  private static String errorFromServer(KubernetesClientException e, String verb, Path file) {
    Status status = e.getStatus();
    String message = status != null && status.getMessage() != null ? status.getMessage() : e.getMessage();
    String reason = status != null && status.getReason() != null && !status.getReason().isEmpty()
        ? " (" + status.getReason() + ")" : "";
    return "Error from server" + reason + ": error when " + verb + " \"" + file + "\": " + message;
  }

  /** {@code kind.group/name}, as kubectl names an object it applied. */
  static String displayName(HasMetadata object) {
    String apiVersion = object.getApiVersion() == null ? "" : object.getApiVersion();
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : "." + apiVersion.substring(0, slash);
    return object.getKind().toLowerCase(Locale.ROOT) + group + "/" + object.getMetadata().getName();
  }

  private void report(List<Outcome> outcomes, Outcome outcome) {
    outcomes.add(outcome);
    (outcome.applied() ? out : err).accept(outcome.message());
  }
}
