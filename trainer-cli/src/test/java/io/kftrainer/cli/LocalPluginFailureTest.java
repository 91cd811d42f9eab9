package io.kftrainer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kftrainer.operator.command.Streams;
import io.kftrainer.operator.plugins.TestingPluginJar;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code local} fails closed on a plugin jar it cannot load, with the same error as {@code run}. */
class LocalPluginFailureTest {

  @TempDir
  Path tmp;

  @Test
  void localStopsOnABrokenPluginJarNamingItAndTheCause() throws IOException {
    Path brokenJar = Files.createDirectories(tmp.resolve("plugins")).resolve("broken-plugin.jar");
    Files.writeString(brokenJar, "not a zip file");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exitCode = TrainerCli.execute(new Streams(InputStream.nullInputStream(), new PrintWriter(out, true),
        new PrintWriter(err, true)), "local", "--plugins-dir", tmp.resolve("plugins").toString(), "--port=0",
        "--kubeconfig-out=" + tmp.resolve("local.kubeconfig"));

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("Error: cannot load plugin " + brokenJar + ": not a readable jar: zip END "
        + "header not found (--allow-plugin-load-failures starts without it)\n");
    assertThat(tmp.resolve("local.kubeconfig")).doesNotExist();
  }

  @Test
  void localStopsOnAJarBuiltForANewerJavaBeforeItListens() throws IOException {
    Path jar = TestingPluginJar.markedForJava(TestingPluginJar.build(tmp.resolve("plugins/newer.jar"),
        "org.acme.v21.Newer", Map.of("org.acme.v21.Newer", """
            package org.acme.v21;

            public class Newer implements io.kftrainer.framework.spi.Plugin {
              public String name() { return "newer"; }
            }
            """)), "org.acme.v21.Newer", 21);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exitCode = TrainerCli.execute(new Streams(InputStream.nullInputStream(), new PrintWriter(out, true),
        new PrintWriter(err, true)), "local", "--plugins-dir", tmp.resolve("plugins").toString(), "--port=0",
        "--ephemeral", "--kubeconfig-out=" + tmp.resolve("local.kubeconfig"));

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString()).isEqualTo("Error: cannot load plugin " + jar + ": org.acme.v21.Newer is built for "
        + "Java 21, this operator runs Java " + Runtime.version().feature()
        + " (--allow-plugin-load-failures starts without it)\n");
    assertThat(out.toString()).isEmpty();
    assertThat(tmp.resolve("local.kubeconfig")).doesNotExist();
  }
}
