package io.kftrainer.schema.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes' regex library: {@code s.find(re)} (the first match, or "") and {@code s.findAll(re)},
 * {@code s.findAll(re, limit)} (every match, at most {@code limit} when it is not negative). Patterns are Java's
 * {@link Pattern}, which accepts what RE2 accepts for the expressions CRDs use; compiled patterns are cached.
 */
final class RegexLibrary extends CelLibrary {

  /** Rules' patterns are few; a pattern that comes from the object itself is compiled without being cached. */
  private static final int CACHED_PATTERNS = 1024;
  private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

  @Override
  List<CelFunctionDecl> functions() {
    return List.of(
        CelFunctionDecl.newFunctionDeclaration("find",
            newMemberOverload("string_find_string", SimpleType.STRING, SimpleType.STRING, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration("findAll",
            newMemberOverload("string_find_all_string", ListType.create(SimpleType.STRING), SimpleType.STRING,
                SimpleType.STRING),
            newMemberOverload("string_find_all_string_int", ListType.create(SimpleType.STRING), SimpleType.STRING,
                SimpleType.STRING, SimpleType.INT)));
  }

  @Override
  List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_find_string", String.class, String.class, (s, re) -> {
          Matcher matcher = pattern(re).matcher(s);
          return matcher.find() ? matcher.group() : "";
        }),
        CelFunctionBinding.from("string_find_all_string", String.class, String.class,
            (s, re) -> findAll(s, re, -1)),
        CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
  }

  private static List<String> findAll(String s, String re, long limit) throws CelEvaluationException {
    List<String> matches = new ArrayList<>();
    Matcher matcher = pattern(re).matcher(s);
    while ((limit < 0 || matches.size() < limit) && matcher.find()) {
      matches.add(matcher.group());
    }
    return matches;
  }

  private static Pattern pattern(String re) throws CelEvaluationException {
    try {
      Pattern cached = PATTERNS.get(re);
      if (cached != null) {
        return cached;
      }
      Pattern pattern = Pattern.compile(re);
      if (PATTERNS.size() < CACHED_PATTERNS) {
        PATTERNS.put(re, pattern);
      }
      return pattern;
    } catch (PatternSyntaxException e) {
      throw error("error parsing regexp: " + e.getDescription() + ": `" + re + "`");
    }
  }
}
