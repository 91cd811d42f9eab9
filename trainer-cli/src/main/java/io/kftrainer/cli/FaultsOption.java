package io.kftrainer.cli;

import io.kftrainer.apiserver.FaultInjector;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --inject-faults SPEC} of {@code local} and {@code apiserver}: a {@link FaultInjector} specification. */
final class FaultsOption implements ITypeConverter<FaultInjector> {

  static final String DESCRIPTION = "Make the API server fail a share of the requests once it is up, for chaos "
      + "testing: rate=R,kinds=K,...[,delay=D][,watch-life=D][,retry-after=S][,seed=N] with kinds among 500, 429 "
      + "(with Retry-After), conflict (409 on PUT/PATCH), timeout (504 after the request took effect), delay, "
      + "watch-drop; e.g. rate=0.1,kinds=500,429,conflict,watch-drop. Counts on GET /debug/stats.";

  @Override
  public FaultInjector convert(String value) {
    try {
      return FaultInjector.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("--inject-faults: " + e.getMessage());
    }
  }
}
