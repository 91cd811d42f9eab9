package io.kftrainer.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.bundle.Cel;
import dev.cel.common.CelValidationException;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelRuntime;
import io.kftrainer.schema.cel.KubernetesCel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles and evaluates {@code x-kubernetes-validations} rules and their {@code messageExpression}s in
 * {@link KubernetesCel}'s environment. {@code self} and {@code oldSelf} are bound to the JSON value converted to CEL's
 * values (maps, lists, int, double, string, bool). Programs are compiled once per expression text.
 *
 * <p>Cost: kube-apiserver meters each evaluation with cel-go's cost model and cancels a call beyond
 * {@link #PER_CALL_LIMIT} and an object's rules beyond {@link #PER_OBJECT_BUDGET} in total. cel-java has no cost
 * model, so the cost here is an approximation of cel-go's: one unit per evaluated expression node, plus one per ten
 * elements or characters of each string, list or map a node produces.
 */
final class CelRules {

  /** kube's {@code celconfig.PerCallLimit}. */
  static final long PER_CALL_LIMIT = 1_000_000;
  /** kube's {@code celconfig.RuntimeCELCostBudget}: all the rules of one object. */
  static final long PER_OBJECT_BUDGET = 10_000_000;

  /** The outcome of one evaluation: a value, or an error (not compiled, failed, or over the cost limit). */
  record Outcome(Object value, String error, Kind kind, long cost) {
    enum Kind { VALUE, COMPILE_ERROR, EVALUATION_ERROR, NO_SUCH_OVERLOAD, COST_LIMIT }

    boolean isTrue() {
      return kind == Kind.VALUE && Boolean.TRUE.equals(value);
    }
  }

  /** What an object's evaluations have left of {@link #PER_OBJECT_BUDGET}; not thread-safe, one per validation. */
  static final class Budget {
    private long remaining;
    private boolean stopped;

    Budget(long remaining) {
      this.remaining = remaining;
    }

    /** Spends {@code cost}; false when it was more than what was left. */
    boolean spend(long cost) {
      remaining -= cost;
      return remaining >= 0;
    }

    /** After an error kube reports with "no further validation rules will be run". */
    void stop() {
      stopped = true;
    }

    boolean stopped() {
      return stopped;
    }
  }

  private static final class CostLimitExceeded extends RuntimeException {
    CostLimitExceeded() {
      super("operation cancelled: actual cost limit exceeded", null, false, false);
    }
  }

  /** Counts the cost of one evaluation and cancels it beyond the per-call limit. */
  private static final class CostMeter implements CelEvaluationListener {
    private final long limit;
    private long cost;

    CostMeter(long limit) {
      this.limit = limit;
    }

    @Override
    public void callback(dev.cel.common.ast.CelExpr expr, Object result) {
      cost += 1;
      if (result instanceof String s) {
        cost += s.length() / 10;
      } else if (result instanceof java.util.Collection<?> c) {
        cost += c.size() / 10;
      } else if (result instanceof Map<?, ?> m) {
        cost += m.size() / 10;
      }
      if (cost > limit) {
        throw new CostLimitExceeded();
      }
    }
  }

  private static final Cel CEL = KubernetesCel.environment();

  private static final java.util.regex.Pattern OLD_SELF = java.util.regex.Pattern.compile("\\boldSelf\\b");

  private final Map<String, Object> programs = new ConcurrentHashMap<>();
  private final Map<String, Boolean> transitionRules = new ConcurrentHashMap<>();
  private final long perCallLimit;

  CelRules() {
    this(PER_CALL_LIMIT);
  }

  CelRules(long perCallLimit) {
    this.perCallLimit = perCallLimit;
  }

  /** Evaluates {@code expression} with {@code self} and {@code oldSelf} (null when absent) as {@link #toCel} made them. */
  Outcome evaluate(String expression, Object self, Object oldSelf) {
    Object compiled = programs.computeIfAbsent(expression, CelRules::compile);
    if (compiled instanceof String) {
      return new Outcome(null, (String) compiled, Outcome.Kind.COMPILE_ERROR, 0);
    }
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("self", self);
    if (oldSelf != null) {
      variables.put("oldSelf", oldSelf);
    }
    CostMeter meter = new CostMeter(perCallLimit);
    try {
      Object value = ((CelRuntime.Program) compiled).trace(variables, meter);
      return new Outcome(value, null, Outcome.Kind.VALUE, meter.cost);
    } catch (CostLimitExceeded e) {
      return new Outcome(null, e.getMessage(), Outcome.Kind.COST_LIMIT, meter.cost);
    } catch (CelEvaluationException e) {
      if (causedByCostLimit(e)) {
        return new Outcome(null, new CostLimitExceeded().getMessage(), Outcome.Kind.COST_LIMIT, meter.cost);
      }
      String message = e.getMessage();
      boolean overload = message.contains("No matching overload");
      return new Outcome(null, overload ? "no such overload" : withoutLocation(message),
          overload ? Outcome.Kind.NO_SUCH_OVERLOAD : Outcome.Kind.EVALUATION_ERROR, meter.cost);
    }
  }

  private static boolean causedByCostLimit(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CostLimitExceeded) {
        return true;
      }
    }
    return false;
  }

  /** cel-java prefixes errors with {@code evaluation error at <input>:N: }; cel-go's do not name the position. */
  private static String withoutLocation(String message) {
    return message.replaceFirst("^evaluation error( at [^:]*:\\d+)?: ", "");
  }

  private static Object compile(String expression) {
    try {
      return CEL.createProgram(CEL.compile(expression).getAst());
    } catch (CelValidationException | CelEvaluationException e) {
      return e.getMessage();
    }
  }

  /** Whether {@code rule} is a transition rule (names {@code oldSelf}); remembered per rule text. */
  boolean referencesOldSelf(String rule) {
    return transitionRules.computeIfAbsent(rule, r -> OLD_SELF.matcher(r).find());
  }

  /** JSON to CEL values; JSON nulls are left out of maps, as absent fields. */
  static Object toCel(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return com.google.protobuf.NullValue.NULL_VALUE;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> {
        if (!e.getValue().isNull()) {
          map.put(e.getKey(), toCel(e.getValue()));
        }
      });
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      node.forEach(item -> list.add(toCel(item)));
      return list;
    }
    if (node.isIntegralNumber()) {
      return node.asLong();
    }
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    return node.asText();
  }
}
