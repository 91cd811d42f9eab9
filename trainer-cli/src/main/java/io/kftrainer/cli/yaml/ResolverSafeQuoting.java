package io.kftrainer.cli.yaml;

import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import java.util.regex.Pattern;

/**
 * Quotes every string that a YAML 1.1 or YAML 1.2 resolver would read as something else, so that
 * {@code render}'s output reads back as the same strings in PyYAML, SnakeYAML, go-yaml and kubectl alike.
 *
 * <p>Jackson's default quotes only YAML 1.2 numbers and a few keywords: PyYAML (YAML 1.1) then reads an unquoted
 * {@code 1:4} (elastic {@code PET_NNODES}) as the sexagesimal integer 64. The patterns below are the union of the
 * YAML 1.1 type regexes (bool, int, float, null, timestamp, merge, value, as PyYAML's and SnakeYAML's resolvers have
 * them, plus 1.1's {@code y}/{@code n}) and YAML 1.2's core schema; quoting a string that needed none costs two
 * characters, leaving one unquoted costs a wrong value.
 */
final class ResolverSafeQuoting extends StringQuotingChecker {

  private static final long serialVersionUID = 1L;

  static final ResolverSafeQuoting INSTANCE = new ResolverSafeQuoting();

  private static final Pattern TYPED = Pattern.compile(String.join("|",
      // YAML 1.1 bool (with y/n), and YAML 1.2 core bool
      "y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF",
      // null (1.1 and 1.2)
      "~|null|Null|NULL",
      // YAML 1.1 int: binary, octal, decimal, hex, sexagesimal; underscores allowed
      "[-+]?0b[0-1_]+",
      "[-+]?0[0-7_]+",
      "[-+]?(?:0|[1-9][0-9_]*)",
      "[-+]?0x[0-9a-fA-F_]+",
      "[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+",
      // YAML 1.2 core int: octal 0o, decimal with leading zeros, hex
      "[-+]?0o[0-7]+",
      "[-+]?[0-9]+",
      // YAML 1.1 float: decimal, sexagesimal, inf, nan
      "[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*(?:[eE][-+]?[0-9]+)?",
      "[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*",
      "[-+]?\\.(?:inf|Inf|INF)",
      "\\.(?:nan|NaN|NAN)",
      // YAML 1.2 core float, with an exponent and no dot
      "[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?",
      // YAML 1.1 timestamp
      "[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?"
          + "(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?",
      // YAML 1.1 merge key and value indicator
      "<<|="));

  private ResolverSafeQuoting() {
  }

  /** Whether an unquoted {@code value} would not read back as this string in YAML 1.1 or 1.2. */
  static boolean isTyped(String value) {
    return value.isEmpty() || TYPED.matcher(value).matches();
  }

  @Override
  public boolean needToQuoteName(String name) {
    return isTyped(name) || isReservedKeyword(name) || nameHasQuotableChar(name);
  }

  @Override
  public boolean needToQuoteValue(String value) {
    return isTyped(value) || isReservedKeyword(value) || valueHasQuotableChar(value);
  }

  private Object readResolve() {
    return INSTANCE;
  }
}
