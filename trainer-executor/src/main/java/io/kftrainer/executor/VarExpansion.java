package io.kftrainer.executor;

import java.util.Map;

/**
 * Kubernetes' {@code $(VAR)} expansion in env values, command and args: {@code $(NAME)} becomes the variable's value
 * when it is defined and stays as written otherwise; {@code $$} escapes a {@code $}.
 */
final class VarExpansion {

  private VarExpansion() {
  }

  static String expand(String input, Map<String, String> vars) {
    if (input == null || input.indexOf('$') < 0) {
      return input;
    }
    StringBuilder out = new StringBuilder(input.length());
    int i = 0;
    while (i < input.length()) {
      char c = input.charAt(i);
      if (c != '$' || i + 1 >= input.length()) {
        out.append(c);
        i++;
        continue;
      }
      char next = input.charAt(i + 1);
      if (next == '$') {
        out.append('$');
        i += 2;
      } else if (next == '(') {
        int close = input.indexOf(')', i + 2);
        if (close < 0) {
          out.append(input, i, input.length());
          break;
        }
        String name = input.substring(i + 2, close);
        String value = vars.get(name);
        out.append(value != null ? value : input.substring(i, close + 1));
        i = close + 1;
      } else {
        out.append(c).append(next);
        i += 2;
      }
    }
    return out.toString();
  }
}
