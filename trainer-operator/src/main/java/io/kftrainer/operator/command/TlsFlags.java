package io.kftrainer.operator.command;

import io.kftrainer.webhook.TlsOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --tlsMinVersion} and {@code --tlsCipherSuites}, the TLS overrides upstream's manager gains in
 * kubeflow/trainer PR #4103 (open on 2026-12-07): given, they replace the Configuration file's
 * {@code tls.minVersion} and {@code tls.cipherSuites} for every HTTPS server (webhooks, metrics, status server), so
 * that a platform's TLS profile can be passed as arguments. The version is the file's form ({@code 1.2}) or Go's
 * constant name ({@code VersionTLS12}); suites are IANA names, comma-separated. PR #4103's
 * {@code --tlsCurvePreferences} is not offered: Java 17 sets key-exchange groups only for the whole JVM
 * ({@code -Djdk.tls.namedGroups}).
 */
public final class TlsFlags {

  private static final Map<String, String> GO_VERSIONS = Map.of("VersionTLS10", "1.0", "VersionTLS11", "1.1",
      "VersionTLS12", "1.2", "VersionTLS13", "1.3");

  @Spec(Spec.Target.MIXEE)
  private CommandSpec spec;

  @Option(names = "--tlsMinVersion", paramLabel = "VERSION",
      description = "Lowest TLS version the HTTPS servers accept, instead of the file's tls.minVersion: 1.2, 1.3 "
          + "(or Go's VersionTLS12, VersionTLS13).")
  private String minVersion;

  @Option(names = "--tlsCipherSuites", paramLabel = "SUITE,...",
      description = "TLS 1.2 cipher suites the HTTPS servers offer, instead of the file's tls.cipherSuites (IANA "
          + "names, comma-separated).")
  private String cipherSuites;

  /**
   * {@code file}'s TLS settings with the flags given.
   *
   * @throws ParameterException (a usage error) naming the flag and the value it does not accept
   */
  public TlsOptions applyTo(TlsOptions file) {
    Optional<String> version = file.minVersion();
    if (minVersion != null) {
      String given = GO_VERSIONS.getOrDefault(minVersion.trim(), minVersion.trim());
      if (!TlsOptions.VERSIONS.contains(given)) {
        throw new ParameterException(spec.commandLine(), "Invalid value for option '--tlsMinVersion': \""
            + minVersion + "\" (expected one of " + String.join(", ", TlsOptions.VERSIONS) + " or "
            + String.join(", ", GO_VERSIONS.keySet().stream().sorted().toList()) + ")");
      }
      version = Optional.of(given);
    }
    List<String> suites = file.cipherSuites();
    if (cipherSuites != null) {
      suites = Arrays.stream(cipherSuites.split(",")).map(String::trim).filter(suite -> !suite.isEmpty()).toList();
      for (String suite : suites) {
        if (!TlsOptions.isSupportedCipherSuite(suite)) {
          throw new ParameterException(spec.commandLine(), "Invalid value for option '--tlsCipherSuites': \""
              + suite + "\" is not a cipher suite this JVM supports (IANA names, e.g. "
              + "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)");
        }
      }
    }
    return new TlsOptions(version, suites, file.nextProtos());
  }
}
