package io.kftrainer.operator.app;

/**
 * Something that runs in the operator process next to the TrainJob controller, such as the admission webhook
 * server or the health and metrics server. {@link TrainerOperator} starts components in order, on a thread of their
 * own beside the controller's informers (so that webhooks and probes answer while caches fill), and stops them in
 * reverse order after the controller.
 */
public interface OperatorComponent {

  /** For logs, e.g. {@code webhook-server}. */
  String name();

  /** Starts serving; an exception fails the operator's start-up. */
  void start() throws Exception;

  /** Stops serving; must not throw and may be called without a successful {@link #start()}. */
  void stop();

  /** A component the configuration switched off (e.g. {@code metrics.bindAddress: "0"}): starts nothing. */
  static OperatorComponent disabled(String name) {
    return new OperatorComponent() {
      @Override
      public String name() {
        return name + " (disabled)";
      }

      @Override
      public void start() {
      }

      @Override
      public void stop() {
      }
    };
  }

  /**
   * Builds a component from the operator's wiring, once, when the operator is built. Factories let components
   * share the operator's plugins, runner, caches and registries instead of building their own.
   */
  @FunctionalInterface
  interface Factory {
    OperatorComponent create(OperatorContext context);
  }
}
