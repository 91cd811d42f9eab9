package io.kftrainer.framework.loader;

/** A plugin jar or class that could not be loaded, with what went wrong. */
public record LoadProblem(String path, String message) {

  @Override
  public String toString() {
    return path + ": " + message;
  }
}
