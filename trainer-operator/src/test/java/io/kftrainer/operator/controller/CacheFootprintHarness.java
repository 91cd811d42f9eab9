package io.kftrainer.operator.controller;

import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kftrainer.api.jobset.v1alpha2.JobSet;
import io.kftrainer.api.v1alpha1.TrainJob;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A measuring harness, not a test of the build: the heap one cached TrainJob costs the operator together with its
 * JobSet and runtime snapshot ConfigMap, as the informers hold them. One TrainJob is reconciled against the embedded
 * server; its three objects are read back as the server serves them (status, managed fields and all), then N
 * copies with their own names and uids are deserialized as an informer does, with and without
 * {@link CompactObjects}; the heap after full GCs, divided by N, is printed. Runs only when asked:
 * {@code ./mvnw -pl trainer-operator test -Dtest=CacheFootprintHarness -Dtrainer.footprint=10000}.
 */
class CacheFootprintHarness {

  private static final String NS = "footprint";

  @Test
  void heapPerCachedTrainJob(@TempDir Path pluginsDir) throws Exception {
    int count = Integer.getInteger("trainer.footprint", 0);
    assumeTrue(count > 0, "measuring harness: run with -Dtrainer.footprint=N");
    List<String> json = new ArrayList<>();
    KubernetesSerialization serialization;
    try (TestCluster cluster = TestCluster.start()) {
      cluster.startOperator(TestCluster.config(pluginsDir));
      cluster.createRuntimes(NS);
      cluster.createTrainJob(NS, "job", tj -> {
      });
      cluster.awaitJobSet(NS, "job");
      ConfigMap snapshot = await().atMost(TestCluster.TIMEOUT).until(() -> cluster.client().configMaps().inNamespace(NS)
          .withName("job" + RuntimeSnapshots.NAME_SUFFIX).get(), c -> c != null);
      serialization = cluster.client().getKubernetesSerialization();
      json.add(serialization.asJson(cluster.trainJob(NS, "job")));
      json.add(serialization.asJson(cluster.jobSet(NS, "job").orElseThrow()));
      json.add(serialization.asJson(snapshot));
    }
    System.out.printf("FOOTPRINT JSON of the cached objects: TrainJob %d B, JobSet %d B, snapshot %d B%n",
        json.get(0).length(), json.get(1).length(), json.get(2).length());
    for (boolean compact : new boolean[] {false, true}) {
      long before = usedHeapAfterGc();
      List<HasMetadata> cache = new ArrayList<>(3 * count);
      for (int i = 0; i < count; i++) {
        cache.add(cached(serialization, json.get(0), TrainJob.class, compact));
        cache.add(cached(serialization, json.get(1), JobSet.class, compact));
        cache.add(cached(serialization, json.get(2), ConfigMap.class, compact));
      }
      long after = usedHeapAfterGc();
      System.out.printf("FOOTPRINT %d TrainJobs with JobSet and snapshot, %s: %.2f KiB per TrainJob%n", count,
          compact ? "compacted (CompactObjects)" : "as deserialized", (after - before) / 1024.0 / count);
      if (Boolean.getBoolean("trainer.footprint.histogram")) {
        // the classes that hold the heap, from the JDK's own tool
        Process jcmd = new ProcessBuilder("jcmd", Long.toString(ProcessHandle.current().pid()), "GC.class_histogram")
            .redirectErrorStream(true).start();
        try (var lines = jcmd.inputReader().lines()) {
          lines.limit(25).forEach(line -> System.out.println("FOOTPRINT " + line));
        }
        jcmd.waitFor();
      }
      cache.clear();
    }
  }

  private static <T extends HasMetadata> T cached(KubernetesSerialization serialization, String json, Class<T> type,
      boolean compact) {
    T object = serialization.unmarshal(json, type);
    // every object of a real cache has its own identity strings
    object.getMetadata().setName(object.getMetadata().getName() + "-" + UUID.randomUUID().toString().substring(0, 8));
    object.getMetadata().setUid(UUID.randomUUID().toString());
    return compact ? CompactObjects.compact(object) : object;
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
