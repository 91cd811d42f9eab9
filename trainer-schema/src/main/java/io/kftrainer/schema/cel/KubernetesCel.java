package io.kftrainer.schema.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelOptions;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;

/**
 * The CEL environment kube-apiserver gives {@code x-kubernetes-validations} rules and their {@code messageExpression}s:
 * standard CEL with cross-type numeric comparisons, {@code self} and {@code oldSelf} (dynamically typed), cel's
 * string extensions ({@code lowerAscii}, {@code split}, {@code join}, {@code replace}, {@code substring}...), sets
 * ({@code sets.contains}...), optional types ({@code self.?field.orValue(x)}), and Kubernetes' libraries:
 * {@linkplain ListsLibrary lists}, {@linkplain RegexLibrary regex}, {@linkplain UrlLibrary URLs},
 * {@linkplain QuantityLibrary quantities}, {@linkplain NetworkLibrary IPs and CIDRs}. Not available: the format,
 * semver and authz libraries, and the strings extension's {@code format} and {@code quote} (cel-java 0.11 lacks them).
 */
public final class KubernetesCel {

  private static final CelOptions OPTIONS = CelOptions.current()
      .enableHeterogeneousNumericComparisons(true)
      .enableOptionalSyntax(true)
      .build();

  private static final Cel CEL = CelFactory.standardCelBuilder()
      .setOptions(OPTIONS)
      .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
      .addVar("self", SimpleType.DYN)
      .addVar("oldSelf", SimpleType.DYN)
      .addCompilerLibraries(CelExtensions.strings(), CelExtensions.sets(OPTIONS), CelExtensions.optional())
      .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.sets(OPTIONS), CelExtensions.optional())
      .addCompilerLibraries(new ListsLibrary(), new RegexLibrary(), new UrlLibrary(), new QuantityLibrary(),
          new NetworkLibrary())
      .addRuntimeLibraries(new ListsLibrary(), new RegexLibrary(), new UrlLibrary(), new QuantityLibrary(),
          new NetworkLibrary())
      .build();

  private KubernetesCel() {
  }

  /** The environment; thread-safe, built once. */
  public static Cel environment() {
    return CEL;
  }
}
