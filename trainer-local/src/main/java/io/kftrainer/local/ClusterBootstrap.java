package io.kftrainer.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kftrainer.runtime.RuntimeCatalog;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * What an installation puts into a cluster before the operator runs, done to the embedded server from what this
 * jar carries on its class path: the CRDs (trainer-api's and JobSet's, and those plugin jars ship under
 * {@value #PLUGIN_CRD_DIRECTORY}), the namespaces, the webhook configurations of {@code manifests/base}
 * ({@value #WEBHOOK_DIRECTORY}), and the default ClusterTrainingRuntimes of {@code manifests/runtimes}.
 *
 * <p>Everything goes through the API as a client's writes (server-side apply with the field manager
 * {@value #FIELD_MANAGER}; CRDs are created), so admission and watches see it as they would see
 * {@code kubectl apply}.
 */
final class ClusterBootstrap {

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = new ObjectMapper();

  static final String FIELD_MANAGER = "trainer-local";
  private static final String CRD_API_VERSION = "apiextensions.k8s.io/v1";
  private static final String CRD_KIND = "CustomResourceDefinition";
  /** trainer-api's generated CRDs ({@code <plural>.<group>-v1.yml}), JobSet's included. */
  static final String API_CRD_DIRECTORY = "META-INF/fabric8";
  /** CRDs plugin jars ship for the kinds they create (PodGroups). */
  static final String PLUGIN_CRD_DIRECTORY = "META-INF/trainer/crds";
  /** {@code manifests/base/*webhook-configuration.yaml}, copied by the build. */
  static final String WEBHOOK_DIRECTORY = "META-INF/trainer/webhooks";
  /** {@code manifests/base/public-role.yaml}, copied by the build. */
  static final String PUBLIC_ROLE = "META-INF/trainer/public/public-role.yaml";
  /** {@code manifests/user-roles/kubeflow-trainer-roles.yaml}, copied by the build. */
  static final String USER_ROLES = "META-INF/trainer/user-roles/kubeflow-trainer-roles.yaml";
  /** The ConfigMap holding the operator's version, which the Kubeflow SDK reads (manifests/base). */
  static final String PUBLIC_CONFIG_MAP = "kubeflow-trainer-public";

  private final KubernetesClient client;
  private final ClassLoader classLoader;
  /** The entry names of the jars on the class path, listed once for the directories read from them. */
  private final Map<URL, List<String>> jarEntries = new ConcurrentHashMap<>();

  ClusterBootstrap(KubernetesClient client, ClassLoader classLoader) {
    this.client = Objects.requireNonNull(client, "client");
    this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
  }

  /**
   * Installs every CRD found; returns their names. trainer-api's CRDs are read from the compact JSON copies its
   * build writes beside the YAML ({@code -v1.json}): parsing the YAML (about 250 kB each) took 0.4 s of CPU at each
   * start. They are posted as their files' JSON, not through fabric8's CRD model, whose round trips were most of
   * local mode's start-up time, and side by side: the server parses, stores and returns each (it compiles a
   * schema when it first validates an object of the kind).
   */
  List<String> installCrds() {
    List<ClassPathDirectory.File> files = new ArrayList<>();
    files.addAll(new ClassPathDirectory(classLoader, API_CRD_DIRECTORY, jarEntries)
        .files(name -> name.endsWith("-v1.json")));
    files.addAll(new ClassPathDirectory(classLoader, PLUGIN_CRD_DIRECTORY, jarEntries)
        .files(name -> name.endsWith(".yaml") || name.endsWith(".yml")));
    return files.parallelStream().flatMap(file -> crds(file).stream().map(crd -> {
      String apiVersion = crd.path("apiVersion").asText();
      String kind = crd.path("kind").asText();
      if (!CRD_API_VERSION.equals(apiVersion) || !CRD_KIND.equals(kind)) {
        throw new IllegalStateException(file.name() + " on the class path is not a " + CRD_API_VERSION
            + " " + CRD_KIND + " but a " + apiVersion + " " + kind);
      }
      createOrReplaceCrd(crd);
      return crd.path("metadata").path("name").asText();
    })).toList();
  }

  private static List<JsonNode> crds(ClassPathDirectory.File file) {
    if (!file.name().endsWith(".json")) {
      return documents(file.read(), file.name());
    }
    try {
      return List.of(JSON.readTree(file.read()));
    } catch (IOException e) {
      throw new UncheckedIOException(file.name() + " on the class path is not JSON", e);
    }
  }

  void createNamespaces(String... names) {
    for (String name : Stream.of(names).distinct().toList()) {
      apply(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build());
    }
  }

  /**
   * Installs the operator's webhook configurations, their Service references pointed at {@code serviceName} in
   * {@code operatorNamespace} (path and port kept) and without {@code caBundle}, which the operator's certificate
   * manager patches in, as on a cluster. Returns the configurations' names.
   */
  List<String> installWebhookConfigurations(String operatorNamespace, String serviceName) {
    List<String> names = new ArrayList<>();
    for (ClassPathDirectory.File file : new ClassPathDirectory(classLoader, WEBHOOK_DIRECTORY, jarEntries)
        .files(name -> name.endsWith(".yaml"))) {
      for (JsonNode manifest : documents(file.read(), file.name())) {
        String kind = manifest.path("kind").asText();
        HasMetadata configuration = switch (kind) {
          case "ValidatingWebhookConfiguration" -> {
            ValidatingWebhookConfiguration c = convert(manifest, ValidatingWebhookConfiguration.class);
            c.getWebhooks().forEach(w -> pointAt(w.getClientConfig(), operatorNamespace, serviceName));
            yield c;
          }
          case "MutatingWebhookConfiguration" -> {
            MutatingWebhookConfiguration c = convert(manifest, MutatingWebhookConfiguration.class);
            c.getWebhooks().forEach(w -> pointAt(w.getClientConfig(), operatorNamespace, serviceName));
            yield c;
          }
          default -> throw new IllegalStateException(file.name() + ": not a webhook configuration but a " + kind);
        };
        apply(configuration);
        names.add(configuration.getMetadata().getName());
      }
    }
    if (names.isEmpty()) {
      throw new IllegalStateException("no webhook configuration under " + WEBHOOK_DIRECTORY + " on the class path");
    }
    return names;
  }

  private static void pointAt(WebhookClientConfig config, String namespace, String serviceName) {
    ServiceReference service = config.getService();
    if (service != null) {
      service.setNamespace(namespace);
      service.setName(serviceName);
    }
    config.setCaBundle(null);
  }

  /**
   * Installs what {@code manifests/base} gives every user to read in the operator's namespace: the ConfigMap
   * {@value #PUBLIC_CONFIG_MAP} with {@code kubeflow_trainer_version} (the Kubeflow SDK's {@code TrainerClient} reads
   * it when it starts and warns without it), and the Role and RoleBinding of {@code public-role.yaml} that let every
   * authenticated user read it.
   */
  void installPublicVersion(String operatorNamespace, String version) {
    apply(new ConfigMapBuilder().withNewMetadata().withName(PUBLIC_CONFIG_MAP).withNamespace(operatorNamespace)
        .addToLabels("app.kubernetes.io/name", "kubeflow-trainer")
        .addToLabels("app.kubernetes.io/part-of", "kubeflow-trainer").endMetadata()
        .addToData("kubeflow_trainer_version", version).build());
    for (JsonNode manifest : read(PUBLIC_ROLE)) {
      ObjectNode tree = (ObjectNode) manifest.deepCopy();
      object(tree, "metadata").put("namespace", operatorNamespace);
      apply(convert(tree, GenericKubernetesResource.class));
    }
  }

  /**
   * Installs upstream's user ClusterRoles of {@code manifests/user-roles} ({@code kubeflow-trainer-edit},
   * {@code kubeflow-trainer-view}) and the ClusterRoleBinding that lets every authenticated user read
   * ClusterTrainingRuntimes: a RoleBinding of {@code kubeflow-trainer-edit} then gives a namespace's user what the
   * Kubeflow SDK's TrainerClient needs there. Returns the objects' names.
   */
  List<String> installUserRoles() {
    List<String> names = new ArrayList<>();
    for (JsonNode manifest : read(USER_ROLES)) {
      GenericKubernetesResource object = convert(manifest, GenericKubernetesResource.class);
      apply(object);
      names.add(object.getKind() + "/" + object.getMetadata().getName());
    }
    return names;
  }

  /**
   * Installs the shipped runtimes as {@code kubectl apply -k manifests/runtimes} would: each file of the
   * kustomization's {@code resources}, with the labels of its {@code labels[].pairs}. Returns their names.
   */
  List<String> installRuntimes() {
    String directory = RuntimeCatalog.SHIPPED_DIRECTORY;
    JsonNode kustomization = read(directory + "kustomization.yaml").get(0);
    List<GenericKubernetesResource> runtimes = new ArrayList<>();
    for (JsonNode file : kustomization.path("resources")) {
      for (JsonNode manifest : read(directory + file.asText())) {
        ObjectNode tree = (ObjectNode) manifest.deepCopy();
        ObjectNode labels = object(object(tree, "metadata"), "labels");
        for (JsonNode label : kustomization.path("labels")) {
          label.path("pairs").properties().forEach(pair -> labels.set(pair.getKey(), pair.getValue()));
        }
        runtimes.add(convert(tree, GenericKubernetesResource.class));
      }
    }
    runtimes.parallelStream().forEach(this::apply); // each is validated against the CRD's schema and CEL rules
    return runtimes.stream().map(runtime -> runtime.getMetadata().getName()).toList();
  }

  private static ObjectNode object(ObjectNode parent, String field) {
    JsonNode child = parent.get(field);
    return child instanceof ObjectNode existing ? existing : parent.putObject(field);
  }

  private List<JsonNode> read(String resource) {
    ClassPathDirectory.File file = new ClassPathDirectory.File(resource, classLoader.getResource(resource));
    if (file.url() == null) {
      throw new IllegalStateException(resource + " is not on the class path");
    }
    return documents(file.read(), resource);
  }

  /**
   * The non-empty documents of one of this project's own files on the class path, which its tests check: read as
   * they are, without the command line's checks of a user's manifests.
   */
  private static List<JsonNode> documents(String text, String name) {
    try {
      return YAML.readerFor(JsonNode.class).<JsonNode>readValues(text).readAll().stream()
          .filter(document -> document != null && document.isObject()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(name + " on the class path is not YAML", e);
    }
  }

  private <T> T convert(JsonNode tree, Class<T> type) {
    return client.getKubernetesSerialization().convertValue(tree, type);
  }

  /**
   * Creates the CRD, or replaces the one a data directory kept from an earlier start when this version's differs
   * (this version's wins, as {@code kubectl replace} on an upgrade). A kept CRD with this version's spec is left
   * alone (the server stores a CRD's spec as given): the usual restart reads each CRD once and writes none.
   */
  private void createOrReplaceCrd(JsonNode crd) {
    String collection = "/apis/" + CRD_API_VERSION + "/customresourcedefinitions";
    String name = crd.path("metadata").path("name").asText();
    String kept = client.raw(collection + "/" + name);
    if (kept == null) {
      client.raw(collection, "POST", crd.toString());
      return;
    }
    JsonNode stored;
    try {
      stored = JSON.readTree(kept);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (stored.path("spec").equals(crd.path("spec"))) {
      return;
    }
    ObjectNode replacement = crd.deepCopy();
    ((ObjectNode) replacement.path("metadata")).put("resourceVersion",
        stored.path("metadata").path("resourceVersion").asText());
    client.raw(collection + "/" + name, "PUT", replacement.toString());
  }

  private void apply(HasMetadata object) {
    client.resource(object).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
  }
}
