package io.kftrainer.operator.command;

import io.kftrainer.operator.app.OperatorVersion;
import picocli.CommandLine.IVersionProvider;

/** The project version ({@link OperatorVersion}). */
public final class VersionProvider implements IVersionProvider {

  @Override
  public String[] getVersion() {
    return new String[] {"trainer-operator " + version()};
  }

  public static String version() {
    return OperatorVersion.get();
  }
}
