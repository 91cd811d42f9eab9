package io.kftrainer.plugins.torch;

import java.util.Locale;
import java.util.Set;

/**
 * The pretrained model a torchtune runtime fine-tunes, named by the runtime:
 * {@code torchtune-<family>-<size>} gives {@code <family with . as _>/<SIZE>}, so
 * {@code torchtune-llama3.2-1b} is {@code llama3_2/1B}. Any other runtime name gives the empty model, which is not
 * supported.
 *
 * @param name the model as torchtune's config names start with it, e.g. {@code llama3_2/1B}
 */
record TuneModel(String name) {

  static final TuneModel LLAMA3_2_1B = new TuneModel("llama3_2/1B");
  static final TuneModel LLAMA3_2_3B = new TuneModel("llama3_2/3B");
  static final TuneModel LLAMA3_3_70B = new TuneModel("llama3_3/70B");
  static final TuneModel QWEN2_5_1_5B = new TuneModel("qwen2_5/1.5B");

  private static final Set<TuneModel> SUPPORTED = Set.of(LLAMA3_2_1B, LLAMA3_2_3B, LLAMA3_3_70B, QWEN2_5_1_5B);

  static TuneModel fromRuntimeName(String runtimeName) {
    String[] fields = runtimeName == null ? new String[0] : runtimeName.split("-", -1);
    if (fields.length != 3) {
      return new TuneModel("");
    }
    return new TuneModel(fields[1].replace('.', '_') + "/" + fields[2].toUpperCase(Locale.ROOT));
  }

  boolean isSupported() {
    return SUPPORTED.contains(this);
  }

  /** Only the 70B model has a multi-node configuration. */
  boolean supportsMultiNode() {
    return equals(LLAMA3_3_70B);
  }

  @Override
  public String toString() {
    return name;
  }
}
