package io.kftrainer.framework.loader;

import io.kftrainer.framework.spi.Plugin;

/** Registered in this module's test class path, standing in for the operator's built-in plugins. */
public class BuiltInTestPlugin implements Plugin {

  @Override
  public String name() {
    return "built-in";
  }
}
