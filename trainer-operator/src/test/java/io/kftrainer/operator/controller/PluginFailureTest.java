package io.kftrainer.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.Condition;
import io.kftrainer.framework.spi.Plugin;
import io.kftrainer.operator.app.TrainerOperator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A plugin that throws fails the reconcile of that TrainJob only: its {@code Created} condition (the operator runs
 * with {@code --created-condition}) and a Warning Event
 * name the plugin, JOSDK retries it with back-off, and another TrainJob is built meanwhile. The failure is logged
 * once, at WARN without a stack (the stack at DEBUG), however often it is retried. The plugin comes from a jar in
 * {@code --plugins-dir}, loaded like any third-party plugin.
 */
class PluginFailureTest {

  private static final String NS = "plugins";

  @Test
  void aThrowingPluginFailsOnlyItsTrainJobAndIsRetried(@TempDir Path pluginsDir) throws Exception {
    writePluginJar(pluginsDir.resolve("exploding.jar"), ExplodingPlugin.class);
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    Logger reconcilerLog = (Logger) LoggerFactory.getLogger(TrainJobReconciler.class);
    Level reconcilerLevel = reconcilerLog.getLevel();
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    root.addAppender(logs);
    reconcilerLog.setLevel(Level.DEBUG);
    try (TestCluster cluster = TestCluster.start()) {
      TrainerOperator operator = cluster.startOperator(TestCluster.config(pluginsDir).withCreatedCondition(true));
      assertThat(operator.runner().plugins()).extracting(Plugin::name).contains(ExplodingPlugin.NAME);
      cluster.createRuntimes(NS);

      cluster.createTrainJob(NS, ExplodingPlugin.VICTIM, tj -> {
      });
      cluster.createTrainJob(NS, "fine", tj -> {
      });

      cluster.awaitJobSet(NS, "fine");
      Condition failed = cluster.awaitCondition(NS, ExplodingPlugin.VICTIM, "Created", "False");
      assertThat(failed.getReason()).isEqualTo("BuildFailed");
      assertThat(failed.getMessage())
          .isEqualTo("plugin Exploding failed in EnforceMLPolicy: cannot configure boom with [redacted]");
      assertThat(cluster.jobSet(NS, ExplodingPlugin.VICTIM)).isEmpty();

      await().atMost(TestCluster.TIMEOUT).untilAsserted(() -> assertThat(cluster.events(NS, ExplodingPlugin.VICTIM))
          .filteredOn(event -> "TrainJobResourcesCreationFailed".equals(event.getReason()))
          // each retry's Event is aggregated into one (EventCorrelator): its count grows
          .singleElement()
          .satisfies(event -> {
            assertThat(event.getCount()).isGreaterThanOrEqualTo(2);
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getMessage()).isEqualTo("TrainJob resources reconciliation failed: plugin Exploding "
                + "failed in EnforceMLPolicy: cannot configure boom with [redacted]");
          }));
      assertThat(cluster.events(NS, ExplodingPlugin.VICTIM))
          .noneMatch(event -> event.getMessage().contains(ExplodingPlugin.KEY_LINE));
      await().atMost(TestCluster.TIMEOUT)
          .until(() -> TestCluster.reconcilesFailed(operator.meterRegistry()), failures -> failures >= 3);
      assertThat(operator.awaitTermination(0, TimeUnit.SECONDS)).isEmpty();
      List<ILoggingEvent> victim = List.copyOf(logs.list).stream()
          .filter(event -> event.getFormattedMessage().contains(ExplodingPlugin.VICTIM)
              || event.getFormattedMessage().contains("Uncaught error during event processing"))
          .toList();
      assertThat(victim).filteredOn(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
          .singleElement().satisfies(event -> {
            assertThat(event.getFormattedMessage()).isEqualTo("Cannot reconcile the objects of TrainJob " + NS + "/"
                + ExplodingPlugin.VICTIM + ": plugin Exploding failed in EnforceMLPolicy: cannot configure boom with "
                + "[redacted]");
            assertThat(event.getThrowableProxy()).isNull();
          });
      assertThat(victim).filteredOn(event -> event.getLevel() == Level.DEBUG && event.getThrowableProxy() != null)
          .hasSizeGreaterThanOrEqualTo(3)
          .allSatisfy(event -> assertThat(ThrowableProxyUtil.asString(event.getThrowableProxy()))
              .contains("ExplodingPlugin.enforceMLPolicy").doesNotContain(ExplodingPlugin.KEY_LINE));
    } finally {
      root.detachAppender(logs);
      reconcilerLog.setLevel(reconcilerLevel);
    }
  }

  /** A plugin jar as a third party ships it: the class and its ServiceLoader registration. */
  static void writePluginJar(Path jar, Class<? extends Plugin> plugin) throws IOException {
    String classFile = plugin.getName().replace('.', '/') + ".class";
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
        InputStream bytes = plugin.getClassLoader().getResourceAsStream(classFile)) {
      out.putNextEntry(new JarEntry(classFile));
      bytes.transferTo(out);
      out.closeEntry();
      out.putNextEntry(new JarEntry("META-INF/services/" + Plugin.class.getName()));
      out.write((plugin.getName() + "\n").getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
  }
}
