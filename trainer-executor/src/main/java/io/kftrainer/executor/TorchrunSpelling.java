package io.kftrainer.executor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * torchrun's options in the spelling every torchrun accepts: {@code --nproc_per_node}, {@code --no_python}. Images
 * ship torch 2, whose torchrun added the hyphenated forms ({@code --nproc-per-node}, {@code --no-python}) as aliases
 * of the underscored ones; a machine's own torch may be older (Debian's is 1.13), which knows only the underscored
 * ones. Only torchrun's own options are respelled, up to the training script; the script's arguments are its own.
 */
final class TorchrunSpelling {

  /** torchrun's options that take no value: the script starts after the first token that is neither. */
  private static final Set<String> FLAGS = Set.of("--standalone", "--no_python", "-m", "--module", "--run_path");

  private TorchrunSpelling() {
  }

  static List<String> rewrite(List<String> argv) {
    if (argv.isEmpty() || !Path.of(argv.get(0)).getFileName().toString().equals("torchrun")) {
      return argv;
    }
    List<String> result = new ArrayList<>(List.of(argv.get(0)));
    int i = 1;
    while (i < argv.size() && argv.get(i).startsWith("-")) {
      String arg = argv.get(i);
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      if (name.startsWith("--")) {
        name = "--" + name.substring(2).replace('-', '_');
      }
      result.add(eq < 0 ? name : name + arg.substring(eq));
      i++;
      if (eq < 0 && !FLAGS.contains(name) && i < argv.size()) {
        result.add(argv.get(i++)); // the option's value
      }
    }
    result.addAll(argv.subList(i, argv.size()));
    return result;
  }
}
