package io.kftrainer.cli;

import io.kftrainer.apiserver.RequestFilter;
import java.util.ServiceLoader;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --inject-faults SPEC} of {@code local} and {@code apiserver}: the API server's fault injector, a test fixture
 * that trainer.jar does not hold. It is the {@link RequestFilter.Provider} named {@value #PROVIDER}, found on the class
 * path when trainer-apiserver's test-jar is there: {@code java -cp trainer.jar:trainer-apiserver-VERSION-tests.jar
 * io.kftrainer.cli.TrainerCli apiserver --inject-faults ...} (docs/reliability.md).
 */
final class FaultsOption implements ITypeConverter<RequestFilter> {

  static final String PROVIDER = "faults";

  static final String DESCRIPTION = "Make the API server fail a share of the requests once it is up, for chaos "
      + "testing: rate=R,kinds=K,...[,delay=D][,watch-life=D][,retry-after=S][,seed=N] with kinds among 500, 429 "
      + "(with Retry-After), conflict (409 on PUT/PATCH), timeout (504 after the request took effect), delay, "
      + "watch-drop; e.g. rate=0.1,kinds=500,429,conflict,watch-drop. Counts on GET /debug/stats. The fault injector "
      + "is a test fixture: it needs trainer-apiserver's test-jar on the class path (see docs/reliability.md).";

  @Override
  public RequestFilter convert(String value) {
    RequestFilter.Provider provider = ServiceLoader.load(RequestFilter.Provider.class).stream()
        .map(ServiceLoader.Provider::get)
        .filter(candidate -> candidate.name().equals(PROVIDER))
        .findFirst()
        .orElseThrow(() -> new TypeConversionException("--inject-faults: the fault injector is a test fixture, not "
            + "part of trainer.jar: run with trainer-apiserver's test-jar on the class path, java -cp "
            + "trainer.jar:trainer-apiserver-<version>-tests.jar io.kftrainer.cli.TrainerCli ... "
            + "(docs/reliability.md)"));
    try {
      return provider.create(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("--inject-faults: " + e.getMessage());
    }
  }
}
