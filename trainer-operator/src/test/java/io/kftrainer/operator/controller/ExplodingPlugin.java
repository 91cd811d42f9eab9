package io.kftrainer.operator.controller;

import io.kftrainer.framework.spi.BuildContext;
import io.kftrainer.framework.spi.EnforceMLPolicy;

/**
 * A third-party plugin that fails for one TrainJob: the TrainJob named {@value #VICTIM}, with a message that carries
 * a private key (which must never reach an Event). Every other TrainJob passes untouched. Loaded from a plugin jar
 * that {@link PluginFailureTest} writes into {@code --plugins-dir}.
 */
public final class ExplodingPlugin implements EnforceMLPolicy {

  public static final String NAME = "Exploding";
  public static final String VICTIM = "boom";
  static final String KEY_LINE = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void enforceMLPolicy(BuildContext context) {
    if (VICTIM.equals(context.trainJob().getMetadata().getName())) {
      throw new IllegalStateException("cannot configure " + VICTIM + " with -----BEGIN PRIVATE KEY-----\n" + KEY_LINE
          + "\n-----END PRIVATE KEY-----");
    }
  }
}
