package io.kftrainer.schema.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes' quantity library: {@code quantity(s)}, {@code isQuantity(s)}, and on a quantity {@code sign()},
 * {@code isInteger()}, {@code asInteger()}, {@code asApproximateFloat()}, {@code add(q|int)}, {@code sub(q|int)},
 * {@code isLessThan(q)}, {@code isGreaterThan(q)}, {@code compareTo(q)}; equality is numeric ({@link QuantityValue}).
 */
final class QuantityLibrary extends CelLibrary {

  static final CelType QUANTITY = OpaqueType.create("kubernetes.Quantity");

  @Override
  List<CelFunctionDecl> functions() {
    CelType bool = SimpleType.BOOL;
    CelType integer = SimpleType.INT;
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("quantity",
            newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("isQuantity",
            newGlobalOverload("is_quantity_string", bool, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("sign", newMemberOverload("quantity_sign", integer, QUANTITY)),
        CelFunctionDecl.newFunctionDeclaration("isInteger", newMemberOverload("quantity_is_integer", bool, QUANTITY)),
        CelFunctionDecl.newFunctionDeclaration("asInteger",
            newMemberOverload("quantity_get_integer", integer, QUANTITY)),
        CelFunctionDecl.newFunctionDeclaration("asApproximateFloat",
            newMemberOverload("quantity_get_float", SimpleType.DOUBLE, QUANTITY)),
        CelFunctionDecl.newFunctionDeclaration("add",
            newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
            newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, integer)),
        CelFunctionDecl.newFunctionDeclaration("sub",
            newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, integer)),
        CelFunctionDecl.newFunctionDeclaration("isLessThan",
            newMemberOverload("quantity_less", bool, QUANTITY, QUANTITY)),
        CelFunctionDecl.newFunctionDeclaration("isGreaterThan",
            newMemberOverload("quantity_greater", bool, QUANTITY, QUANTITY)),
        CelFunctionDecl.newFunctionDeclaration("compareTo",
            newMemberOverload("quantity_compare_to", integer, QUANTITY, QUANTITY)));
  }

  @Override
  List<CelFunctionBinding> bindings() {
    Class<QuantityValue> q = QuantityValue.class;
    return List.of(
        CelFunctionBinding.from("string_to_quantity", String.class, s -> parsed(QuantityValue::parse, s)),
        CelFunctionBinding.from("is_quantity_string", String.class, s -> parses(QuantityValue::parse, s)),
        CelFunctionBinding.from("quantity_sign", q, a -> (long) a.amount().signum()),
        CelFunctionBinding.from("quantity_is_integer", q, QuantityValue::isInteger),
        CelFunctionBinding.from("quantity_get_integer", q, a -> {
          if (!a.isInteger()) {
            throw error("cannot convert value to integer");
          }
          return a.amount().longValueExact();
        }),
        CelFunctionBinding.from("quantity_get_float", q, a -> a.amount().doubleValue()),
        CelFunctionBinding.from("quantity_add", q, q, QuantityValue::add),
        CelFunctionBinding.from("quantity_add_int", q, Long.class, (a, b) -> a.add(QuantityValue.of(b))),
        CelFunctionBinding.from("quantity_sub", q, q, QuantityValue::subtract),
        CelFunctionBinding.from("quantity_sub_int", q, Long.class, (a, b) -> a.subtract(QuantityValue.of(b))),
        CelFunctionBinding.from("quantity_less", q, q, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from("quantity_greater", q, q, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from("quantity_compare_to", q, q, (a, b) -> (long) Integer.signum(a.compareTo(b))));
  }
}
