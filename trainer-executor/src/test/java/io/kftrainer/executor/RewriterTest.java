package io.kftrainer.executor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RewriterTest {

  private static final HostTable HOSTS = new HostTable();
  private static final String NODE0 = HOSTS.addressOf("default", "job-node-0-0", "job");
  private static final Rewriter REWRITER = new Rewriter(
      Map.of("/workspace", "/run/pvc/initializer", "/workspace/model", "/run/model", "/etc/mpi", "/run/mpi"),
      "default", "job", HOSTS, Map.of(29500, 40123));

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("a pod's DNS name becomes its loopback address", "job-node-0-0.job", NODE0),
        Arguments.of("the namespace and svc forms too", "job-node-0-0.job.default.svc.cluster.local", NODE0),
        Arguments.of("a remapped port after the name", "tcp://job-node-0-0.job:29500", "tcp://" + NODE0 + ":40123"),
        Arguments.of("a value that is only the port", "29500", "40123"),
        Arguments.of("a port that is not remapped stays", "job-node-0-0.job:2222", NODE0 + ":2222"),
        Arguments.of("code that looks like a name stays", "comm.job(x)", "comm.job(x)"),
        Arguments.of("another subdomain stays", "job-node-0-0.other", "job-node-0-0.other"),
        Arguments.of("a mount path becomes its directory", "/workspace/dataset", "/run/pvc/initializer/dataset"),
        Arguments.of("the longest mount path wins", "--model=/workspace/model/x", "--model=/run/model/x"),
        Arguments.of("only at path boundaries", "/workspaces /etc/mpi/hostfile", "/workspaces /run/mpi/hostfile"),
        Arguments.of("numbers in text stay", "steps 29500 done", "steps 29500 done"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rewrites(String name, String input, String expected) {
    assertThat(REWRITER.rewrite(input)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expansions")
  void expandsVariablesAsKubernetes(String name, String input, String expected) {
    assertThat(VarExpansion.expand(input, Map.of("A", "1", "B", "two"))).isEqualTo(expected);
  }

  static Stream<Arguments> expansions() {
    return Stream.of(
        Arguments.of("a defined variable", "x$(A)y", "x1y"),
        Arguments.of("an undefined one stays as written", "$(C)", "$(C)"),
        Arguments.of("$$ escapes", "$$(A) $$", "$(A) $"),
        Arguments.of("an unclosed reference stays", "$(A", "$(A"),
        Arguments.of("a lone dollar stays", "cost $5 $(B)", "cost $5 two"));
  }
}
