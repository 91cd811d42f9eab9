package io.kftrainer.schema.cel;

import dev.cel.checker.CelCheckerBuilder;
import dev.cel.common.CelFunctionDecl;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelRuntimeLibrary;

import java.util.List;

/**
 * One of Kubernetes' CEL libraries ({@code k8s.io/apiserver/pkg/cel/library}) for cel-java: its function
 * declarations for the checker and their implementations for the runtime, kept side by side.
 */
abstract class CelLibrary implements CelCompilerLibrary, CelRuntimeLibrary {

  abstract List<CelFunctionDecl> functions();

  abstract List<CelFunctionBinding> bindings();

  @Override
  public final void setCheckerOptions(CelCheckerBuilder checker) {
    checker.addFunctionDeclarations(functions());
  }

  @Override
  public final void setRuntimeOptions(CelRuntimeBuilder runtime) {
    runtime.addFunctionBindings(bindings());
  }

  /** Parses a string into a value, {@link IllegalArgumentException} with kube's message when it cannot. */
  @FunctionalInterface
  interface Parser<T> {
    T parse(String text);
  }

  /** The parsed value, or an evaluation error with the parser's message (kube's {@code url()}, {@code ip()}...). */
  static <T> T parsed(Parser<T> parser, String text) throws CelEvaluationException {
    try {
      return parser.parse(text);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** Whether the text parses (kube's {@code isURL()}, {@code isIP()}...). */
  static boolean parses(Parser<?> parser, String text) {
    try {
      parser.parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** An evaluation error whose text is kube's (cel-go's {@code types.NewErr}). */
  static CelEvaluationException error(String message) {
    return new CelEvaluationException(message);
  }
}
