package io.kftrainer.optimization;

import io.kftrainer.api.v1alpha1.OptimizationConstants;

/**
 * Where an OptimizationJob stands, as the condition that says it: {@code Running} while trials run or are to
 * come, then {@code Complete} or {@code Failed} for good, each with its reason and message. The operator writes it
 * into {@code status.conditions}: {@code Running=True} while running; once terminal, {@code Running=False} and the
 * terminal type {@code True}, both with the terminal reason and message.
 */
public record OptimizationPhase(String type, String reason, String message) {

  static OptimizationPhase running(String message) {
    return new OptimizationPhase(OptimizationConstants.CONDITION_RUNNING, OptimizationConstants.REASON_TRIALS_RUNNING,
        message);
  }

  static OptimizationPhase complete(String reason, String message) {
    return new OptimizationPhase(OptimizationConstants.CONDITION_COMPLETE, reason, message);
  }

  static OptimizationPhase failed(String reason, String message) {
    return new OptimizationPhase(OptimizationConstants.CONDITION_FAILED, reason, message);
  }

  public boolean isTerminal() {
    return !OptimizationConstants.CONDITION_RUNNING.equals(type);
  }
}
