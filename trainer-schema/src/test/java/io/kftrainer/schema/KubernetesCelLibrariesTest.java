package io.kftrainer.schema;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Kubernetes CEL libraries and the cel extensions kube enables, each function with true, false and error cases
 * from kube's documentation (https://kubernetes.io/docs/reference/using-api/cel/) and library sources. Errors are
 * kube's texts; a bad regular expression is described by Java's regex parser, not RE2's.
 */
class KubernetesCelLibrariesTest {

  private static final CelRules CEL = new CelRules();

  private static Arguments value(String expression, Object expected) {
    return Arguments.of(expression, expected, null);
  }

  private static Arguments error(String expression, String message) {
    return Arguments.of(expression, null, message);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // lists
        value("[1, 2, 3].isSorted()", true),
        value("[3, 1].isSorted()", false),
        value("['a', 'b', 'b'].isSorted()", true),
        value("[].isSorted()", true),
        value("[1, 2, 3].sum()", 6L),
        value("[1.5, 2.5].sum()", 4.0),
        value("[].sum() == 0", true),
        error("[9223372036854775807, 1].sum()", "integer overflow"),
        value("[2, 1, 3].min()", 1L),
        value("[2, 1, 3].max()", 3L),
        value("['b', 'a'].min()", "a"),
        error("[].min()", "min called on empty list"),
        error("[].max()", "max called on empty list"),
        value("[1, 2, 2, 3].indexOf(2)", 1L),
        value("[1, 2, 2, 3].lastIndexOf(2)", 2L),
        value("[1, 2].indexOf(5)", -1L),
        value("self.items.sum()", 6L),
        value("self.items.isSorted()", true),
        // regex
        value("'abc 123'.find('[0-9]+')", "123"),
        value("'abc'.find('[0-9]+')", ""),
        value("'123 abc 456'.findAll('[0-9]+')", List.of("123", "456")),
        value("'123 abc 456'.findAll('[0-9]+', 1)", List.of("123")),
        value("'123 abc 456'.findAll('[0-9]+', 0)", List.of()),
        value("'abc'.findAll('[0-9]+')", List.of()),
        error("'abc'.find(self.bad)", "error parsing regexp: Unclosed character class: `[`"),
        // url
        value("isURL('https://kubernetes.io/docs/')", true),
        value("isURL('/absolute-path')", true),
        value("isURL('relative/path')", false),
        value("isURL('https://[::1]:80/')", true),
        value("isURL('https://example.com:80a/')", false),
        value("isURL('')", false),
        value("url('https://example.com:80/').getScheme()", "https"),
        value("url('/absolute-path').getScheme()", ""),
        value("url('https://example.com:80/').getHost()", "example.com:80"),
        value("url('https://[::1]:80/').getHost()", "[::1]:80"),
        value("url('https://example.com:80/').getHostname()", "example.com"),
        value("url('https://[::1]:80/').getHostname()", "::1"),
        value("url('https://example.com:80/').getPort()", "80"),
        value("url('https://example.com/').getPort()", ""),
        value("url('https://example.com/path with spaces/').getEscapedPath()", "/path%20with%20spaces/"),
        value("url('https://example.com/a%2Fb').getEscapedPath()", "/a%2Fb"),
        value("url('https://example.com/?k=a&k=b&x=y').getQuery()", Map.of("k", List.of("a", "b"), "x", List.of("y"))),
        value("url('https://example.com/').getQuery()", Map.of()),
        value("url('https://example.com/a') == url('https://example.com/a')", true),
        error("url('relative/path')", "URL parse error during conversion from string: parse \"relative/path\": "
            + "invalid URI for request"),
        error("url('https://example.com/%zz')", "URL parse error during conversion from string: parse "
            + "\"https://example.com/%zz\": invalid URL escape \"%zz\""),
        // quantity
        value("isQuantity('1.5Gi')", true),
        value("isQuantity('500m')", true),
        value("isQuantity('1e3')", true),
        value("isQuantity('200Mi')", true),
        value("isQuantity('10x')", false),
        value("isQuantity('Gi')", false),
        value("quantity('1') == quantity('1000m')", true),
        value("quantity('1Ki') == quantity('1024')", true),
        value("quantity('1Gi').isGreaterThan(quantity('1G'))", true),
        value("quantity('1G').isLessThan(quantity('1Gi'))", true),
        value("quantity('1Gi').isLessThan(quantity('1G'))", false),
        value("quantity('200M').compareTo(quantity('0.2G'))", 0L),
        value("quantity('50k').compareTo(quantity('50M'))", -1L),
        value("quantity('-1').sign()", -1L),
        value("quantity('0').sign()", 0L),
        value("quantity('5k').isInteger()", true),
        value("quantity('500m').isInteger()", false),
        value("quantity('9999999999999999999').isInteger()", false),
        value("quantity('1.5k').asInteger()", 1500L),
        error("quantity('500m').asInteger()", "cannot convert value to integer"),
        value("quantity('500m').asApproximateFloat()", 0.5),
        value("quantity('50k').add(quantity('20k')) == quantity('70k')", true),
        value("quantity('50k').add(20) == quantity('50020')", true),
        value("quantity('50k').sub(quantity('20k')) == quantity('30k')", true),
        value("quantity('50k').sub(20000) == quantity('30k')", true),
        error("quantity('10x')", "quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
        value("url('https://example.com/path#fragment').getEscapedPath()", "/path"),
        // ip and cidr
        value("isIP('192.168.0.1')", true),
        value("isIP('::1')", true),
        value("isIP('192.168.0.1.0')", false),
        value("isIP('010.0.0.1')", false),
        value("isIP('fe80::1%en0')", false),
        value("ip('192.168.0.1').family()", 4L),
        value("ip('2001:db8::1').family()", 6L),
        value("ip('127.0.0.1').isLoopback()", true),
        value("ip('::1').isLoopback()", true),
        value("ip('10.0.0.1').isLoopback()", false),
        value("ip('0.0.0.0').isUnspecified()", true),
        value("ip('::').isUnspecified()", true),
        value("ip('224.0.0.1').isLinkLocalMulticast()", true),
        value("ip('ff02::1').isLinkLocalMulticast()", true),
        value("ip('169.254.1.1').isLinkLocalUnicast()", true),
        value("ip('fe80::1').isLinkLocalUnicast()", true),
        value("ip('192.168.0.1').isGlobalUnicast()", true),
        value("ip('255.255.255.255').isGlobalUnicast()", false),
        value("ip.isCanonical('2001:db8::1')", true),
        value("ip.isCanonical('2001:DB8::1')", false),
        value("ip.isCanonical('2001:db8:0:0:0:0:0:1')", false),
        value("string(ip('2001:DB8::1'))", "2001:db8::1"),
        value("ip('127.0.0.1') == ip('127.0.0.1')", true),
        error("ip('192.168.0.1.0')", "IP Address \"192.168.0.1.0\" parse error during conversion from string: "
            + "ParseAddr(\"192.168.0.1.0\"): IPv4 address too long"),
        error("ip('fe80::1%en0')", "IP address \"fe80::1%en0\" with zone value is not allowed"),
        error("ip('::ffff:1.2.3.4')", "IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed"),
        value("isCIDR('192.168.0.0/24')", true),
        value("isCIDR('192.168.0.1/24')", true),
        value("isCIDR('192.168.0.0/33')", false),
        value("isCIDR('192.168.0.0')", false),
        value("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true),
        value("cidr('192.168.0.0/24').containsIP('192.168.1.1')", false),
        value("cidr('2001:db8::/32').containsIP('2001:db8::1')", true),
        value("cidr('192.168.0.0/24').containsIP('::1')", false),
        value("cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", true),
        value("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/16')", false),
        value("cidr('192.168.0.1/24').ip() == ip('192.168.0.1')", true),
        value("cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", true),
        value("cidr('192.168.0.0/24').prefixLength()", 24L),
        value("string(cidr('192.168.0.1/24'))", "192.168.0.1/24"),
        error("cidr('192.168.0.0/33')", "network address parse error during conversion from string: "
            + "netip.ParsePrefix(\"192.168.0.0/33\"): prefix length out of range"),
        // strings (cel's extension, as kube enables it)
        value("'TacoCat'.lowerAscii()", "tacocat"),
        value("'TacoCat'.upperAscii()", "TACOCAT"),
        value("'a,b,c'.split(',')", List.of("a", "b", "c")),
        value("['a', 'b'].join('-')", "a-b"),
        value("'  x '.trim()", "x"),
        value("'hello'.charAt(1)", "e"),
        value("'hello'.indexOf('l')", 2L),
        value("'hello'.lastIndexOf('l')", 3L),
        value("'hello'.substring(1, 3)", "el"),
        value("'hello'.replace('l', 'L')", "heLLo"),
        // sets and optionals
        value("sets.contains([1, 2, 3], [3, 1])", true),
        value("sets.intersects([1, 2], [3])", false),
        value("self.?missing.orValue('default')", "default"),
        value("self.?name.orValue('default')", "x"),
        value("optional.of(1).hasValue()", true),
        // cross-type numeric comparisons
        value("1 < 1.5", true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void evaluatesAsKubeApiserver(String expression, Object expected, String error) {
    Object self = Map.of("name", "x", "bad", "[", "items", List.of(1L, 2L, 3L));
    CelRules.Outcome outcome = CEL.evaluate(expression, self, null);
    if (error == null) {
      assertThat(outcome.error()).as("error").isNull();
      assertThat(outcome.value()).isEqualTo(expected);
    } else {
      assertThat(outcome.kind()).isEqualTo(CelRules.Outcome.Kind.EVALUATION_ERROR);
      assertThat(outcome.error()).isEqualTo(error);
    }
  }
}
