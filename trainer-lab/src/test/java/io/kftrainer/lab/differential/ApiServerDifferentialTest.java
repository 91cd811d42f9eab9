package io.kftrainer.lab.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.kftrainer.apiserver.EmbeddedApiServer;
import io.kftrainer.apiserver.testing.EmbeddedApiServerExtension;
import io.kftrainer.lab.Lab;
import io.kftrainer.lab.LabBinaries;
import io.kftrainer.lab.LabExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The embedded API server answers clients as kube-apiserver does, or differs where the committed table says: the
 * same interactions of kubectl, the fabric8 client and Python's kubernetes client run against the lab's
 * kube-apiserver and against {@code trainer-apiserver}, each case in a namespace of its own on ConfigMaps, Secrets,
 * Pods, Jobs, PodTemplates and TrainJobs (the project's CRD on both), and what each client saw is compared: exit
 * codes, HTTP status codes, reasons, causes, messages and the resulting objects, normalised for uids,
 * resourceVersions, timestamps and tokens ({@link Normalized}). Each case's result (identical, or where it differs)
 * must match {@code docs/apiserver-differences-table.md}; {@code -Dtrainer.updateDiffTable=true} rewrites the table.
 *
 * <p>The embedded server keeps a watch history of {@value #HISTORY} changes (default 100,000) and the lab's etcd is
 * compacted by the case that needs it, so that a watch from a forgotten resourceVersion meets each server's refusal.
 */
@ExtendWith(LabExtension.class)
class ApiServerDifferentialTest {

  static final int HISTORY = 50;
  private static final boolean UPDATE = Boolean.getBoolean("trainer.updateDiffTable");
  private static final Path CRD = LabBinaries.projectDir()
      .resolve("manifests/crds/trainer.kubeflow.org_trainjobs.yaml");
  private static final String HISTORY_NAMESPACE = "diff-history";
  private static final Duration READY = Duration.ofSeconds(60);
  private static final List<Case> CASES = Cases.all();

  @RegisterExtension
  static final EmbeddedApiServerExtension EMBEDDED = EmbeddedApiServerExtension.of(
      EmbeddedApiServer.builder().watchHistory(HISTORY), server -> server.installCrds(CRD));

  private static final Map<String, String> DETAILS = new LinkedHashMap<>();
  private static Side kube;
  private static Side ours;
  private static DifferenceTable table;
  private static String kubernetesVersion;

  @BeforeAll
  static void servers(Lab lab) throws Exception {
    Path work = lab.work().resolve("differential");
    kube = new Side(Side.KUBE_APISERVER, work.resolve("kube-apiserver"), lab.adminKubeconfig(),
        (namespace, name) -> lab.serviceAccountToken(namespace, name, Duration.ofMinutes(10)),
        admin -> {
          Side.write(admin, HISTORY_NAMESPACE, 2);
          lab.compactEtcd();
        });
    EmbeddedApiServer server = EMBEDDED.server();
    ours = new Side(Side.EMBEDDED, work.resolve("embedded"),
        server.writeKubeconfig(work.resolve("embedded.kubeconfig")),
        (namespace, name) -> server.client().serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(
            new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L).endSpec().build())
            .getStatus().getToken(),
        admin -> Side.write(admin, HISTORY_NAMESPACE, HISTORY + 1));
    try (InputStream in = Files.newInputStream(CRD)) {
      kube.admin().load(in).serverSideApply();
    }
    await("the TrainJob CRD is established").atMost(READY).until(() -> established(kube.admin()
        .apiextensions().v1().customResourceDefinitions().withName("trainjobs.trainer.kubeflow.org").get()));
    await("kube-apiserver's discovery serves TrainJobs").atMost(READY).until(() -> kube.admin()
        .getApiResources(Manifests.TRAINJOB_API_VERSION).getResources().stream()
        .anyMatch(resource -> resource.getName().equals("trainjobs")));
    List<String> namespaces = new ArrayList<>(List.of(HISTORY_NAMESPACE));
    CASES.forEach(c -> namespaces.add(c.namespace()));
    for (Side side : List.of(kube, ours)) {
      namespaces.forEach(name -> side.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata()
          .withName(name).endMetadata().build()).create());
    }
    for (Side side : List.of(kube, ours)) {
      await("the default ServiceAccount of each namespace on " + side).atMost(READY).until(() -> namespaces.stream()
          .allMatch(name -> side.admin().serviceAccounts().inNamespace(name).withName("default").get() != null));
    }
    table = new DifferenceTable(LabBinaries.projectDir().resolve("docs/apiserver-differences-table.md"));
    kubernetesVersion = lab.versions().getProperty("kubernetes");
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
        .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
  }

  @TestFactory
  Stream<DynamicTest> eachCaseAsTheTableSays() {
    return CASES.stream().map(c -> DynamicTest.dynamicTest(c.key(), () -> compare(c)));
  }

  private static void compare(Case c) throws Exception {
    Observation onKube = c.step().run(kube, c.namespace());
    Observation onOurs = c.step().run(ours, c.namespace());
    List<String> where = Observation.differences(onKube, onOurs);
    String result = where.isEmpty() ? DifferenceTable.IDENTICAL : "different: " + String.join("; ", where);
    table.record(c, result);
    if (!where.isEmpty()) {
      DETAILS.put(c.key(), "kube-apiserver:\n" + onKube.describe() + "embedded:\n" + onOurs.describe());
    }
    if (!UPDATE) {
      assertThat(result).as("%s, against %s (after an intended change: %s)", c.key(), table.file(),
          DifferenceTable.command()).isEqualTo(table.committed(c).orElse("(not in the table)"));
    }
  }

  @AfterAll
  static void table() throws IOException {
    if (table == null) {
      return;
    }
    try {
      String rendered = table.render(kubernetesVersion);
      System.out.println(rendered);
      DETAILS.forEach((key, detail) -> System.out.println("== " + key + "\n" + detail));
      if (UPDATE) {
        table.write(kubernetesVersion);
      } else if (table.complete()) {
        assertThat(Files.readString(table.file(), StandardCharsets.UTF_8))
            .as("%s (regenerate with %s)", table.file(), DifferenceTable.command()).isEqualTo(rendered);
      }
    } finally {
      kube.close();
      ours.close();
    }
  }
}
