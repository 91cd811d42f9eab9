package io.kftrainer.framework.spi;

import java.util.Arrays;
import java.util.List;

/** The extension points, in the order the framework's phases call them. */
public enum ExtensionPoint {
  WATCH_EXTENSION(WatchExtension.class),
  CUSTOM_VALIDATION(CustomValidation.class),
  ENFORCE_ML_POLICY(EnforceMLPolicy.class),
  ENFORCE_POD_GROUP_POLICY(EnforcePodGroupPolicy.class),
  ENFORCE_POD_SPEC(EnforcePodSpec.class),
  PRE_BUILD_SYNC(PreBuildSync.class),
  COMPONENT_BUILDER(ComponentBuilder.class),
  TERMINAL_CONDITION(TerminalCondition.class);

  private final Class<? extends Plugin> type;

  ExtensionPoint(Class<? extends Plugin> type) {
    this.type = type;
  }

  public Class<? extends Plugin> type() {
    return type;
  }

  /** The interface's simple name, e.g. {@code EnforceMLPolicy}. */
  public String displayName() {
    return type.getSimpleName();
  }

  /** The extension points {@code plugin} implements, in phase order. */
  public static List<ExtensionPoint> implementedBy(Plugin plugin) {
    return Arrays.stream(values()).filter(p -> p.type.isInstance(plugin)).toList();
  }
}
