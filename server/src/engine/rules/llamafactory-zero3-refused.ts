/**
 * llamafactory-zero3-refused: LLaMA-Factory settings its own checks refuse under DeepSpeed ZeRO-3.
 */
import type { TrainerModel } from '../formats/trainer/model';
import type { Node } from '../syntax/tree';
import { defineRule } from './rule';

/** The checks, with the releases whose source was read (LLaMA-Factory tags; HEAD is ff6d4d1). */
const CHECKS: { key: string; applies(v: Node, root: Map<string, Node>): boolean; message: string; since: string; earlier?: string }[] = [
  {
    // src/llamafactory/model/model_utils/quantization.py@ff6d4d1:197-201; first in
    // src/llmtuner/model/patcher.py@v0.6.2:187-189 (absent @v0.6.1), worded "…can use auto device map." until 0.8.1.
    // 0.3.0-0.6.0 refused every bitsandbytes quantization under ZeRO-3 with another message; 0.6.1 took it.
    key: 'quantization_bit',
    applies: (v, root) => v.kind === 'scalar' && v.value === 8 && [undefined, 'bnb', 'bitsandbytes'].includes(scalar(root.get('quantization_method')) as string | undefined),
    message: '8-bit bitsandbytes quantization under ZeRO-3 stops LLaMA-Factory when it loads the model ("Only 4-bit quantized model can use fsdp+qlora or auto device map"; before 0.8.2 "…can use auto device map"). Use `quantization_bit: 4`, or ZeRO-2.',
    since: '0.6.2',
    earlier: '0.3.0 to 0.6.0 refused any bitsandbytes quantization under ZeRO-3, in other words; only 0.6.1 took it',
  },
  {
    // src/llamafactory/hparams/parser.py@ff6d4d1:502-503 (from v0.8.3).
    key: 'pure_bf16',
    applies: (v) => v.kind === 'scalar' && v.value === true,
    message: '`pure_bf16` under ZeRO-3 stops LLaMA-Factory while it reads the arguments ("`pure_bf16` is incompatible with DeepSpeed ZeRO-3"). Use `bf16: true` instead, or ZeRO-2.',
    since: '0.8.3',
  },
  {
    // src/llamafactory/hparams/parser.py@ff6d4d1:486-487.
    key: 'predict_with_generate',
    applies: (v) => v.kind === 'scalar' && v.value === true,
    message: '`predict_with_generate` under ZeRO-3 stops LLaMA-Factory while it reads the arguments ("`predict_with_generate` is incompatible with DeepSpeed ZeRO-3"). Predict without ZeRO-3, or turn it off.',
    since: '0.9.0',
  },
];

function scalar(n: Node | undefined): unknown {
  return n?.kind === 'scalar' ? n.value : undefined;
}

export default defineRule<TrainerModel>({
  id: 'llamafactory-zero3-refused',
  severity: 'warning',
  formats: ['trainer'],
  docs: {
    summary: 'LLaMA-Factory settings its own checks refuse when the DeepSpeed JSON runs ZeRO-3: 8-bit bitsandbytes quantization, `pure_bf16`, `predict_with_generate`.',
    why: 'LLaMA-Factory stops on these before training: `quantization_bit: 8` with ZeRO-3 when it loads the model ("Only 4-bit quantized model can use fsdp+qlora or auto device map", `model/model_utils/quantization.py`), `pure_bf16` and `predict_with_generate` with ZeRO-3 while it reads the arguments (`hparams/parser.py`). A warning, not an error: the recipe does not say which LLaMA-Factory release reads it, and the message names the release each check first appears in.',
    bad: 'model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\nfinetuning_type: lora\nquantization_bit: 8\ndeepspeed: ds_z3_config.json\noutput_dir: out\n',
    good: 'model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\nfinetuning_type: lora\nquantization_bit: 4\ndeepspeed: ds_z3_config.json\noutput_dir: out\n',
    files: { 'ds_z3_config.json': '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "zero_optimization": { "stage": 3 }\n}\n' },
  },
  check(ctx) {
    const m = ctx.model;
    const root = m.doc.root;
    if (m.recipeOf !== 'llama-factory' || root?.kind !== 'map' || m.deepspeed?.model?.stage !== 3) return;
    const values = new Map(root.entries.map((e) => [e.key, e.value]));
    for (const c of CHECKS) {
      const v = values.get(c.key);
      if (!v || !c.applies(v, values)) continue;
      ctx.report({
        at: [c.key],
        on: 'entry',
        message: `${c.message} (${m.deepspeed.ref} runs ZeRO-3; LLaMA-Factory refuses this from ${c.since} on, as read up to 0.9.5${c.earlier ? `; ${c.earlier}` : ''}.)`,
      });
    }
  },
});
