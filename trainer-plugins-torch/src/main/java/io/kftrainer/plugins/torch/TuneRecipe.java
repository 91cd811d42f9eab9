package io.kftrainer.plugins.torch;

import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.List;

/**
 * The torchtune recipe and config for a fine-tuning job, chosen from its shape and its {@code trainer.args}:
 *
 * <ul>
 *   <li>one node with one process (an int 1, or one GPU): a single-device recipe, full, LoRA or QLoRA;</li>
 *   <li>one node, several processes: {@code lora_finetune_distributed} for LoRA and QLoRA, else
 *       {@code full_finetune_distributed} with the {@code _full} config;</li>
 *   <li>several nodes: {@code full_finetune_distributed} with the {@code _full_multinode} config.</li>
 * </ul>
 *
 * <p>LoRA is on when an arg mentions {@code model.lora_attn_modules}; QLoRA when {@code model.quantize_base} is
 * true and {@code model.use_dora} is not.
 *
 * @param config {@code <model><suffix>}, e.g. {@code llama3_2/1B_lora_single_device}
 */
record TuneRecipe(String recipe, String config) {

  static final String FULL_SINGLE_DEVICE = "full_finetune_single_device";
  static final String FULL_DISTRIBUTED = "full_finetune_distributed";
  static final String LORA_SINGLE_DEVICE = "lora_finetune_single_device";
  static final String LORA_DISTRIBUTED = "lora_finetune_distributed";

  static final String SUFFIX_FULL_SINGLE_DEVICE = "_full_single_device";
  static final String SUFFIX_FULL = "_full";
  static final String SUFFIX_FULL_MULTINODE = "_full_multinode";
  static final String SUFFIX_LORA_SINGLE_DEVICE = "_lora_single_device";
  static final String SUFFIX_QLORA_SINGLE_DEVICE = "_qlora_single_device";
  static final String SUFFIX_LORA = "_lora";
  static final String SUFFIX_QLORA = "_qlora";

  private static final String LORA_ATTN_MODULES = "model.lora_attn_modules";
  private static final String QUANTIZE_BASE = "model.quantize_base";
  private static final String USE_DORA = "model.use_dora";

  static TuneRecipe select(int numNodes, IntOrString procsPerNode, int gpus, List<String> args, TuneModel model) {
    String recipe = FULL_DISTRIBUTED;
    String suffix = SUFFIX_FULL;
    boolean singleDevice = procsPerNode.getIntVal() != null && procsPerNode.getIntVal() == 1 || gpus == 1;
    if (numNodes == 1 && singleDevice) {
      if (isQLora(args)) {
        recipe = LORA_SINGLE_DEVICE;
        suffix = SUFFIX_QLORA_SINGLE_DEVICE;
      } else if (isLora(args)) {
        recipe = LORA_SINGLE_DEVICE;
        suffix = SUFFIX_LORA_SINGLE_DEVICE;
      } else {
        recipe = FULL_SINGLE_DEVICE;
        suffix = SUFFIX_FULL_SINGLE_DEVICE;
      }
    } else if (numNodes == 1 && isQLora(args)) {
      recipe = LORA_DISTRIBUTED;
      suffix = SUFFIX_QLORA;
    } else if (numNodes == 1 && isLora(args)) {
      recipe = LORA_DISTRIBUTED;
      suffix = SUFFIX_LORA;
    } else if (numNodes > 1) {
      suffix = SUFFIX_FULL_MULTINODE;
    }
    return new TuneRecipe(recipe, model.name() + suffix);
  }

  static boolean isLora(List<String> args) {
    return args != null && args.stream().anyMatch(arg -> arg.contains(LORA_ATTN_MODULES));
  }

  static boolean isQLora(List<String> args) {
    return !isTrue(args, USE_DORA) && isTrue(args, QUANTIZE_BASE);
  }

  /** Whether an arg {@code <key>=<value>} has a key containing {@code configItem} and a value of {@code true}. */
  private static boolean isTrue(List<String> args, String configItem) {
    if (args == null) {
      return false;
    }
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq >= 0 && arg.substring(0, eq).contains(configItem)
          && arg.substring(eq + 1).strip().equalsIgnoreCase("true")) {
        return true;
      }
    }
    return false;
  }

  boolean isQLoraConfig() {
    return config.contains(SUFFIX_QLORA);
  }

  boolean isSingleDeviceQLoraConfig() {
    return config.contains(SUFFIX_QLORA_SINGLE_DEVICE);
  }
}
