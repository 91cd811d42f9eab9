package io.kftrainer.lab.differential;

import static io.kftrainer.lab.differential.Manifests.configMap;
import static io.kftrainer.lab.differential.Manifests.trainJob;
import static io.kftrainer.lab.differential.Observe.Output.DOCUMENT;
import static io.kftrainer.lab.differential.Observe.Output.TABLE;
import static io.kftrainer.lab.differential.Observe.Output.TEXT;
import static io.kftrainer.lab.differential.Observe.configMap;
import static io.kftrainer.lab.differential.Observe.kubectl;
import static io.kftrainer.lab.differential.Observe.object;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import java.nio.file.Path;
import java.util.List;

/** The kubectl cases: writes, reads, watches, deletes, explain, and the errors a user meets. */
final class KubectlCases {

  private static final String TRAINJOB = Manifests.TRAINJOB_API_VERSION;
  private static final String CONTAINERS = "{range .template.spec.containers[*]}{.name}={.image} {.env}{\"\\n\"}{end}";

  private KubectlCases() {
  }

  static void add(Cases cases) {
    writes(cases);
    patches(cases);
    reads(cases);
    deletes(cases);
    errors(cases);
  }

  private static void writes(Cases cases) {
    cases.add("kubectl", "create -f a ConfigMap, -o json", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        configMap("settings", "app: a", "a: '1'"), "create", "-n", ns, "-f", "-", "-o", "json"), DOCUMENT)
        .put("object", configMap(side, ns, "settings")));
    cases.add("kubectl", "create -f a Secret with stringData, -o json", (side, ns) -> kubectl(Kubectl.of(side)
        .runWithInput("""
            apiVersion: v1
            kind: Secret
            metadata: {name: token}
            stringData: {token: secret}
            data: {other: eA==}
            """, "create", "-n", ns, "-f", "-", "-o", "json"), DOCUMENT)
        .put("object", object(side, ns, "v1", "Secret", "token")));
    cases.add("kubectl", "create -f a Pod, -o json", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        Manifests.POD, "create", "-n", ns, "-f", "-", "-o", "json"), DOCUMENT));
    cases.add("kubectl", "create -f a Job, -o json", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        Manifests.JOB, "create", "-n", ns, "-f", "-", "-o", "json"), DOCUMENT));
    cases.add("kubectl", "create -f a TrainJob, -o json", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        trainJob("mnist", 2), "create", "-n", ns, "-f", "-", "-o", "json"), DOCUMENT)
        .put("object", object(side, ns, TRAINJOB, "TrainJob", "mnist")));
    cases.add("kubectl", "apply a ConfigMap, then a changed one", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      return new Observation()
          .putAll("first", kubectl(kubectl.runWithInput(configMap("applied", "app: a", "a: '1', b: '2'"),
              "apply", "-n", ns, "-f", "-"), TEXT))
          .putAll("second", kubectl(kubectl.runWithInput(configMap("applied", "app: a", "a: '1', c: '3'"),
              "apply", "-n", ns, "-f", "-"), TEXT))
          .put("object", configMap(side, ns, "applied"));
    });
    cases.add("kubectl", "apply a TrainJob, then a changed one", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      return new Observation()
          .putAll("first", kubectl(kubectl.runWithInput(trainJob("applied", 2), "apply", "-n", ns, "-f", "-"), TEXT))
          .putAll("second", kubectl(kubectl.runWithInput(trainJob("applied", 2).replace("app: applied",
              "app: applied, tier: b"), "apply", "-n", ns, "-f", "-"), TEXT))
          .put("object", object(side, ns, TRAINJOB, "TrainJob", "applied"));
    });
    cases.add("kubectl", "apply --server-side twice", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      String applied = configMap("applied", "app: a", "a: '1'");
      return new Observation()
          .putAll("first", kubectl(kubectl.runWithInput(applied, "apply", "--server-side", "-n", ns, "-f", "-"),
              TEXT))
          .putAll("again", kubectl(kubectl.runWithInput(applied, "apply", "--server-side", "-n", ns, "-f", "-"),
              TEXT))
          .put("object", configMap(side, ns, "applied"));
    });
    cases.add("kubectl", "apply --server-side, conflict with another field manager", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      kubectl.runWithInput(configMap("applied", "app: a", "a: '1'"), "apply", "--server-side", "-n", ns, "-f", "-");
      return kubectl(kubectl.runWithInput(configMap("applied", "app: a", "a: '2'"), "apply", "--server-side",
          "--field-manager=other", "-n", ns, "-f", "-"), TEXT).put("object", configMap(side, ns, "applied"));
    });
    cases.add("kubectl", "apply --server-side --force-conflicts by another field manager", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      kubectl.runWithInput(configMap("applied", "app: a", "a: '1', b: '1'"), "apply", "--server-side", "-n", ns,
          "-f", "-");
      return kubectl(kubectl.runWithInput(configMap("applied", "app: a", "a: '2'"), "apply", "--server-side",
          "--force-conflicts", "--field-manager=other", "-n", ns, "-f", "-"), TEXT)
          .put("object", configMap(side, ns, "applied"));
    });
  }

  private static void patches(Cases cases) {
    cases.add("kubectl", "patch --type=json", (side, ns) -> {
      Kubectl kubectl = created(side, ns);
      return kubectl(kubectl.run("patch", "-n", ns, "configmap", "settings", "--type=json", "-p",
          "[{\"op\":\"test\",\"path\":\"/data/a\",\"value\":\"1\"},{\"op\":\"add\",\"path\":\"/data/b\","
              + "\"value\":\"2\"},{\"op\":\"replace\",\"path\":\"/metadata/labels/app\",\"value\":\"b\"}]"), TEXT)
          .put("object", configMap(side, ns, "settings"));
    });
    cases.add("kubectl", "patch --type=json, a failing test operation", (side, ns) -> kubectl(created(side, ns)
        .run("patch", "-n", ns, "configmap", "settings", "--type=json", "-p",
            "[{\"op\":\"test\",\"path\":\"/data/a\",\"value\":\"9\"}]"), TEXT));
    cases.add("kubectl", "patch --type=json, removing a missing field", (side, ns) -> kubectl(created(side, ns)
        .run("patch", "-n", ns, "configmap", "settings", "--type=json", "-p",
            "[{\"op\":\"remove\",\"path\":\"/data/missing\"}]"), TEXT)
        .put("object", configMap(side, ns, "settings")));
    cases.add("kubectl", "patch --type=merge", (side, ns) -> kubectl(created(side, ns)
        .run("patch", "-n", ns, "configmap", "settings", "--type=merge", "-p",
            "{\"data\":{\"a\":null,\"m\":\"x\"},\"metadata\":{\"annotations\":{\"note\":\"merged\"}}}"), TEXT)
        .put("object", configMap(side, ns, "settings")));
    cases.add("kubectl", "patch --type=merge, an invalid TrainJob", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      kubectl.runWithInput(trainJob("mnist", 2), "create", "-n", ns, "-f", "-");
      return kubectl(kubectl.run("patch", "-n", ns, "trainjob", "mnist", "--type=merge", "-p",
          "{\"spec\":{\"trainer\":{\"numNodes\":-1}}}"), TEXT);
    });
    cases.add("kubectl", "patch --type=strategic, containers and env by name", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      kubectl.runWithInput(Manifests.POD_TEMPLATE, "create", "-n", ns, "-f", "-");
      return new Observation()
          .putAll("merge", kubectl(kubectl.run("patch", "-n", ns, "podtemplate", "template", "--type=strategic",
              "-p", "{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"busybox:2\","
                  + "\"env\":[{\"name\":\"C\",\"value\":\"3\"}]}]}}}", "-o", "jsonpath=" + CONTAINERS), TEXT))
          .putAll("delete", kubectl(kubectl.run("patch", "-n", ns, "podtemplate", "template", "--type=strategic",
              "-p", "{\"template\":{\"spec\":{\"containers\":[{\"name\":\"side\",\"$patch\":\"delete\"}]}}}",
              "-o", "jsonpath=" + CONTAINERS), TEXT))
          .put("object", object(side, ns, "v1", "PodTemplate", "template"));
    });
    cases.add("kubectl", "patch --type=strategic of a TrainJob", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      kubectl.runWithInput(trainJob("mnist", 2), "create", "-n", ns, "-f", "-");
      return kubectl(kubectl.run("patch", "-n", ns, "trainjob", "mnist", "--type=strategic", "-p",
          "{\"metadata\":{\"labels\":{\"b\":\"c\"}}}"), TEXT);
    });
  }

  private static void reads(Cases cases) {
    cases.add("kubectl", "get -o json", (side, ns) -> kubectl(created(side, ns)
        .run("get", "-n", ns, "configmap", "settings", "-o", "json"), DOCUMENT));
    cases.add("kubectl", "get -o yaml --show-managed-fields", (side, ns) -> kubectl(created(side, ns)
        .run("get", "-n", ns, "configmap", "settings", "-o", "yaml", "--show-managed-fields"), DOCUMENT));
    cases.add("kubectl", "get -o wide, ConfigMaps and TrainJobs", (side, ns) -> {
      Kubectl kubectl = created(side, ns);
      kubectl.runWithInput(trainJob("mnist", 2), "create", "-n", ns, "-f", "-");
      return kubectl(kubectl.run("get", "-n", ns, "configmaps,trainjobs", "-l", "app in (a,mnist)", "-o", "wide"),
          TABLE);
    });
    cases.add("kubectl", "get with label selectors", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      kubectl.runWithInput(configMap("one", "case: sel, app: a, tier: x", "a: '1'") + "---\n"
          + configMap("two", "case: sel, app: b", "a: '1'") + "---\n"
          + configMap("three", "case: sel, app: c, tier: y", "a: '1'"), "create", "-n", ns, "-f", "-");
      Observation seen = new Observation();
      for (String selector : List.of("case=sel,app=a", "case=sel,app==b", "case=sel,app!=a", "case=sel,app in (a,b)",
          "case=sel,app notin (a,b)", "case=sel,tier", "case=sel,!tier", "case=sel,tier in (x),app=a")) {
        seen.putAll(selector, kubectl(kubectl.run("get", "-n", ns, "configmaps", "-l", selector, "-o", "name"),
            TEXT));
      }
      return seen;
    });
    cases.add("kubectl", "get with field selectors", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side);
      kubectl.runWithInput(configMap("one", "case: fs", "a: '1'") + "---\n" + configMap("two", "case: fs", "a: '1'"),
          "create", "-n", ns, "-f", "-");
      Observation seen = new Observation();
      for (String selector : List.of("metadata.name=one", "metadata.name!=one", "metadata.namespace=" + ns)) {
        seen.putAll(selector, kubectl(kubectl.run("get", "-n", ns, "configmaps", "-l", "case=fs",
            "--field-selector", selector, "-o", "name"), TEXT));
      }
      return seen;
    });
    cases.add("kubectl", "get with a field selector on an unsupported field", (side, ns) -> kubectl(created(side, ns)
        .run("get", "-n", ns, "configmaps", "--field-selector", "data.a=1", "-o", "name"), TEXT));
    cases.add("kubectl", "get -w --output-watch-events with a label selector", KubectlCases::watch);
    cases.add("kubectl", "get --raw a watch from a compacted resourceVersion", (side, ns) -> {
      String version = side.admin().v1().events().inNamespace(ns).list().getMetadata().getResourceVersion();
      side.forgetHistory();
      return kubectl(Kubectl.of(side).run("get", "--raw", "/api/v1/namespaces/" + ns + "/events?watch=true"
          + "&resourceVersion=" + version + "&timeoutSeconds=5"), DOCUMENT);
    });
    cases.add("kubectl", "explain configmap.data", (side, ns) -> kubectl(Kubectl.of(side)
        .run("explain", "configmap.data"), TEXT));
    cases.add("kubectl", "explain trainjob.spec.trainer.numNodes", (side, ns) -> kubectl(Kubectl.of(side)
        .run("explain", "trainjob.spec.trainer.numNodes"), TEXT));
  }

  /**
   * A watch by label: a ConfigMap created, annotated, taken out of the selection and put back, then deleted. The
   * watch starts after a marker ConfigMap exists, and the case waits for the marker's line before writing.
   */
  private static Observation watch(Side side, String ns) throws InterruptedException {
    Kubectl kubectl = Kubectl.of(side);
    kubectl.runWithInput(configMap("marker", "watch: 'yes'", "a: '0'"), "create", "-n", ns, "-f", "-");
    try (Kubectl.Streaming watch = kubectl.start("get", "-n", ns, "configmaps", "-l", "watch=yes", "-w",
        "--output-watch-events")) {
      Observe.settle(() -> watch.lines().size() >= 2);
      kubectl.runWithInput(configMap("watched", "watch: 'yes'", "a: '1'"), "create", "-n", ns, "-f", "-");
      kubectl.run("annotate", "-n", ns, "configmap", "watched", "note=1");
      kubectl.run("label", "-n", ns, "configmap", "watched", "watch-");
      kubectl.run("label", "-n", ns, "configmap", "watched", "watch=yes");
      kubectl.run("delete", "-n", ns, "configmap", "watched");
      Observe.settle(() -> watch.lines().size() >= 7);
      String err = watch.stop();
      return new Observation().put("out", Normalized.table(String.join("\n", watch.lines())))
          .put("err", Normalized.text(err));
    }
  }

  private static void deletes(Cases cases) {
    for (String cascade : List.of("background", "foreground", "orphan")) {
      cases.add("kubectl", "delete --cascade=" + cascade + " of an owner", (side, ns) -> {
        ConfigMap owner = side.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata()
            .withName("owner").endMetadata().build()).create();
        side.admin().configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata()
            .withName("dependent").addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap")
            .withName("owner").withUid(owner.getMetadata().getUid()).withBlockOwnerDeletion(true).endOwnerReference()
            .endMetadata().build()).create();
        Observation seen = kubectl(Kubectl.of(side).run("delete", "-n", ns, "configmap", "owner",
            "--cascade=" + cascade), TEXT);
        if (!cascade.equals("orphan")) {
          Observe.settle(() -> side.admin().configMaps().inNamespace(ns).withName("dependent").get() == null);
        }
        return seen.put("owner", configMap(side, ns, "owner")).put("dependent", configMap(side, ns, "dependent"));
      });
    }
  }

  private static void errors(Cases cases) {
    cases.add("kubectl", "create, AlreadyExists", (side, ns) -> kubectl(created(side, ns).runWithInput(
        configMap("settings", "app: a", "a: '1'"), "create", "-n", ns, "-f", "-"), TEXT));
    cases.add("kubectl", "replace with a stale resourceVersion", (side, ns) -> {
      Kubectl kubectl = created(side, ns);
      kubectl.run("label", "-n", ns, "configmap", "settings", "changed=yes");
      return kubectl(kubectl.runWithInput("""
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: settings, resourceVersion: "1"}
          data: {a: '2'}
          """, "replace", "-n", ns, "-f", "-"), TEXT).put("object", configMap(side, ns, "settings"));
    });
    cases.add("kubectl", "create with an invalid name", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        configMap("Bad_Name", "", ""), "create", "-n", ns, "-f", "-"), TEXT));
    cases.add("kubectl", "create configmap with an invalid name (protobuf)", (side, ns) -> kubectl(Kubectl.of(side)
        .run("create", "-n", ns, "configmap", "Bad_Name", "--from-literal=a=1"), TEXT));
    for (String validate : List.of("strict", "warn")) {
      cases.add("kubectl", "create a ConfigMap with an unknown field, --validate=" + validate, (side, ns) ->
          kubectl(Kubectl.of(side).runWithInput(configMap("unknown", "", "a: '1'") + "spec: {replicas: 1}\n",
              "create", "-n", ns, "-f", "-", "--validate=" + validate), TEXT)
              .put("object", configMap(side, ns, "unknown")));
      cases.add("kubectl", "create a TrainJob with unknown fields, --validate=" + validate, (side, ns) ->
          kubectl(Kubectl.of(side).runWithInput(trainJob("unknown", 1).replace("numNodes: 1",
                  "numNodes: 1, numProc: 2") + "  replicas: 3\n", "create", "-n", ns, "-f", "-",
              "--validate=" + validate), TEXT)
              .put("object", object(side, ns, TRAINJOB, "TrainJob", "unknown")));
    }
    cases.add("kubectl", "create with a duplicate field, --validate=strict", (side, ns) -> kubectl(Kubectl.of(side)
        .runWithInput("""
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: duplicate}
            data:
              a: '1'
              a: '2'
            """, "create", "-n", ns, "-f", "-", "--validate=strict"), TEXT)
        .put("object", configMap(side, ns, "duplicate")));
    cases.add("kubectl", "create --dry-run=server -o json", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        configMap("dry", "app: a", "a: '1'"), "create", "-n", ns, "-f", "-", "--dry-run=server", "-o", "json"),
        DOCUMENT).put("object", configMap(side, ns, "dry")));
    cases.add("kubectl", "create a 4 MB ConfigMap", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        Manifests.largeConfigMap("large", 4 << 20), "create", "-n", ns, "-f", "-"), TEXT)
        .put("object", configMap(side, ns, "large")));
    cases.add("kubectl", "create a 2 MB ConfigMap", (side, ns) -> kubectl(Kubectl.of(side).runWithInput(
        Manifests.largeConfigMap("large", 2 << 20), "create", "-n", ns, "-f", "-"), TEXT)
        .put("object", configMap(side, ns, "large")));
    cases.add("kubectl", "get and create as a ServiceAccount without rights", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side).as(nobody(side, ns));
      return new Observation()
          .putAll("get", kubectl(kubectl.run("get", "configmaps"), TEXT))
          .putAll("create", kubectl(kubectl.run("create", "configmap", "x", "--from-literal=a=1"), TEXT));
    });
    // kubectl sends these reviews in protobuf
    cases.add("kubectl", "auth can-i as a ServiceAccount without rights", (side, ns) -> {
      Kubectl kubectl = Kubectl.of(side).as(nobody(side, ns));
      return new Observation()
          .putAll("configmaps", kubectl(kubectl.run("auth", "can-i", "get", "configmaps", "-n", ns), TEXT))
          .putAll("reviews", kubectl(kubectl.run("auth", "can-i", "create",
              "selfsubjectaccessreviews.authorization.k8s.io"), TEXT));
    });
    cases.add("kubectl", "auth whoami as a ServiceAccount", (side, ns) ->
        kubectl(Kubectl.of(side).as(nobody(side, ns)).run("auth", "whoami", "-o", "jsonpath={.status.userInfo"
            + ".username} {.status.userInfo.groups}"), TEXT));
    cases.add("kubectl", "create token --duration=5m", (side, ns) -> {
      account(side, ns);
      return kubectl(Kubectl.of(side).run("create", "token", "-n", ns, "nobody", "--duration=5m"), TEXT);
    });
    cases.add("kubectl", "create token --duration=10m", (side, ns) -> {
      account(side, ns);
      return kubectl(Kubectl.of(side).run("create", "token", "-n", ns, "nobody", "--duration=10m"), TEXT);
    });
  }

  /** kubectl as the admin, after ConfigMap {@code settings} ({@code app: a}, {@code a: 1}) was created. */
  private static Kubectl created(Side side, String ns) {
    Kubectl kubectl = Kubectl.of(side);
    kubectl.runWithInput(configMap("settings", "app: a", "a: '1'"), "create", "-n", ns, "-f", "-");
    return kubectl;
  }

  /** Creates ServiceAccount {@code nobody} in {@code ns}: bound to no role. */
  static void account(Side side, String ns) {
    side.admin().serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
        .withName("nobody").endMetadata().build()).create();
  }

  /** The kubeconfig of a new ServiceAccount {@code nobody} of {@code ns} (bound to no role). */
  static Path nobody(Side side, String ns) {
    account(side, ns);
    return side.kubeconfig(ns, "nobody");
  }
}
