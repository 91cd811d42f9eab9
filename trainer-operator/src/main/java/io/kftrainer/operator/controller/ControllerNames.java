package io.kftrainer.operator.controller;

import java.util.Locale;

/** Upstream's names of its controllers, which its metrics carry. */
public final class ControllerNames {

  private static final String SUFFIX = "_controller";

  private ControllerNames() {
  }

  /** The name upstream's {@code Named(...)} gives the controller of {@code kind}: {@code trainjob_controller}. */
  public static String of(String kind) {
    return kind.toLowerCase(Locale.ROOT) + SUFFIX;
  }
}
