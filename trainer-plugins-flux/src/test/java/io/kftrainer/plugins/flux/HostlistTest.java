package io.kftrainer.plugins.flux;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream's {@code TestGenerateRange} and {@code TestGenerateHostlist}. */
class HostlistTest {

  static Stream<Arguments> ranges() {
    return Stream.of(
        Arguments.of("single node", 1, 0, "0"),
        Arguments.of("multiple nodes starting at zero", 4, 0, "0-3"),
        Arguments.of("multiple nodes with offset start", 3, 10, "10-12"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ranges")
  void range(String name, int size, int start, String expected) {
    assertThat(Hostlist.range(size, start)).isEqualTo(expected);
  }

  static Stream<Arguments> hostlists() {
    return Stream.of(
        Arguments.of("prefix with one node", "lammps-job", 1, "lammps-job-node-0-[0]"),
        Arguments.of("prefix with four nodes", "flux-cluster", 4, "flux-cluster-node-0-[0-3]"),
        Arguments.of("empty prefix handled", "", 2, "-node-0-[0-1]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostlists")
  void hostlist(String name, String prefix, int size, String expected) {
    assertThat(Hostlist.of(prefix, size)).isEqualTo(expected);
  }
}
