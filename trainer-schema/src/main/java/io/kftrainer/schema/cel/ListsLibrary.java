package io.kftrainer.schema.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes' lists library: {@code isSorted()}, {@code sum()}, {@code min()}, {@code max()}, {@code indexOf(x)},
 * {@code lastIndexOf(x)} on lists, with kube's errors ({@code min called on empty list}). {@code sum()} adds ints
 * (overflow is an error) or doubles; lists of durations are not summed.
 */
final class ListsLibrary extends CelLibrary {

  private static final CelType T = TypeParamType.create("T");
  private static final CelType LIST_T = ListType.create(T);

  @Override
  List<CelFunctionDecl> functions() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("isSorted", newMemberOverload("list_is_sorted", SimpleType.BOOL, LIST_T)),
        CelFunctionDecl.newFunctionDeclaration("sum", newMemberOverload("list_sum", T, LIST_T)),
        CelFunctionDecl.newFunctionDeclaration("min", newMemberOverload("list_min", T, LIST_T)),
        CelFunctionDecl.newFunctionDeclaration("max", newMemberOverload("list_max", T, LIST_T)),
        CelFunctionDecl.newFunctionDeclaration("indexOf", newMemberOverload("list_index_of", SimpleType.INT, LIST_T, T)),
        CelFunctionDecl.newFunctionDeclaration("lastIndexOf",
            newMemberOverload("list_last_index_of", SimpleType.INT, LIST_T, T)));
  }

  @Override
  List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("list_is_sorted", List.class, ListsLibrary::isSorted),
        CelFunctionBinding.from("list_sum", List.class, ListsLibrary::sum),
        CelFunctionBinding.from("list_min", List.class, list -> extreme(list, "min", -1)),
        CelFunctionBinding.from("list_max", List.class, list -> extreme(list, "max", 1)),
        CelFunctionBinding.from("list_index_of", List.class, Object.class, (list, x) -> indexOf(list, x, false)),
        CelFunctionBinding.from("list_last_index_of", List.class, Object.class, (list, x) -> indexOf(list, x, true)));
  }

  private static boolean isSorted(List<?> list) throws CelEvaluationException {
    for (int i = 1; i < list.size(); i++) {
      if (compare(list.get(i - 1), list.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static Object sum(List<?> list) throws CelEvaluationException {
    long ints = 0;
    double doubles = 0;
    boolean isDouble = false;
    for (Object item : list) {
      if (item instanceof Long l) {
        try {
          ints = Math.addExact(ints, l);
        } catch (ArithmeticException e) {
          throw error("integer overflow");
        }
      } else if (item instanceof Double d) {
        doubles += d;
        isDouble = true;
      } else {
        throw error("no such overload: sum");
      }
    }
    return isDouble ? doubles + ints : (Object) ints;
  }

  /** The least ({@code sign} -1) or greatest (1) element. */
  private static Object extreme(List<?> list, String name, int sign) throws CelEvaluationException {
    if (list.isEmpty()) {
      throw error(name + " called on empty list");
    }
    Object best = list.get(0);
    for (Object item : list.subList(1, list.size())) {
      if (Integer.signum(compare(item, best)) == sign) {
        best = item;
      }
    }
    return best;
  }

  private static long indexOf(List<?> list, Object value, boolean last) {
    for (int n = 0; n < list.size(); n++) {
      int i = last ? list.size() - 1 - n : n;
      if (CelValues.equal(list.get(i), value)) {
        return i;
      }
    }
    return -1;
  }

  private static int compare(Object a, Object b) throws CelEvaluationException {
    try {
      return CelValues.compare(a, b);
    } catch (IllegalArgumentException e) {
      throw error("no such overload");
    }
  }
}
