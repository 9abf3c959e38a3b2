/**
 * llamafactory-zero3-refused: LLaMA-Factory settings its own checks refuse under DeepSpeed ZeRO-3.
 */
import type { TrainerModel } from '../formats/trainer/model';
import type { Node } from '../syntax/tree';
import { defineRule } from './rule';

/** The checks, with the releases whose source was read (LLaMA-Factory tags; HEAD is ff6d4d1). */
/**
 * `before`: the first release that takes it again; such a check, of old releases only, is a note, as
 * the recipe does not say which release reads it and the current ones run it.
 */
const CHECKS: { key: string; applies(v: Node, root: Map<string, Node>): boolean; message: string; since: string; before?: string; earlier?: string }[] = [
  {
    // src/llamafactory/model/model_utils/quantization.py@ff6d4d1:197-201; first in
    // src/llmtuner/model/patcher.py@v0.6.2:187-189 (absent @v0.6.1), worded "…can use auto device map." until 0.8.1.
    // 0.1.7-0.5.3 refused every bitsandbytes quantization under ZeRO-3 with another message (below); 0.6.0
    // and 0.6.1 took it (src/llmtuner/model/patcher.py@v0.6.0:210-214 only asks for library versions).
    key: 'quantization_bit',
    applies: (v, root) => v.kind === 'scalar' && v.value === 8 && [undefined, 'bnb', 'bitsandbytes'].includes(scalar(root.get('quantization_method')) as string | undefined),
    message: '8-bit bitsandbytes quantization under ZeRO-3 stops LLaMA-Factory when it loads the model ("Only 4-bit quantized model can use fsdp+qlora or auto device map"; before 0.8.2 "…can use auto device map"). Use `quantization_bit: 4`, or ZeRO-2.',
    since: '0.6.2',
    earlier: '0.1.7 to 0.5.3 refused any bitsandbytes quantization under ZeRO-3 ("DeepSpeed ZeRO-3 is incompatible with quantization."); 0.6.0 and 0.6.1 took it',
  },
  {
    // 4-bit bitsandbytes: src/llmtuner/tuner/core/loader.py@v0.1.7:123-125 to src/llmtuner/model/patcher.py
    // @v0.5.3:197-199 (absent @v0.1.6); taken from 0.6.0 (patcher.py@v0.6.0:210-214). Those releases have
    // no quantization_method: a quantization_bit is bitsandbytes.
    key: 'quantization_bit',
    applies: (v, root) => v.kind === 'scalar' && v.value === 4 && [undefined, 'bnb', 'bitsandbytes'].includes(scalar(root.get('quantization_method')) as string | undefined),
    message: '4-bit bitsandbytes quantization under ZeRO-3 stops LLaMA-Factory 0.1.7 to 0.5.3 when it loads the model ("DeepSpeed ZeRO-3 is incompatible with quantization."); 0.6.0 and later take it (with transformers 4.39, accelerate 0.28 and bitsandbytes 0.43 or newer). On an older LLaMA-Factory, use ZeRO-2.',
    since: '0.1.7',
    before: '0.6.0',
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
  {
    // src/llamafactory/hparams/parser.py@v0.8.0:68-69, @ff6d4d1:532-533 (absent @v0.7.1).
    key: 'use_unsloth',
    applies: (v) => v.kind === 'scalar' && v.value === true,
    message: '`use_unsloth` under ZeRO-3 stops LLaMA-Factory while it reads the arguments ("Unsloth is incompatible with DeepSpeed ZeRO-3."). Turn Unsloth off, or use ZeRO-2.',
    since: '0.8.0',
  },
  {
    // src/llamafactory/hparams/parser.py@v0.8.3:220-221, @ff6d4d1:495-496 (absent @v0.8.2).
    key: 'pissa_init',
    applies: (v) => v.kind === 'scalar' && v.value === true,
    message: '`pissa_init` under ZeRO-3 stops LLaMA-Factory while it reads the arguments ("Please use scripts/pissa_init.py to initialize PiSSA in DeepSpeed ZeRO-3."). Initialize the PiSSA adapter beforehand with `scripts/pissa_init.py` and load it, or use ZeRO-2.',
    since: '0.8.3',
  },
  {
    // src/llamafactory/hparams/parser.py@v0.9.4, @ff6d4d1:535-536 (absent @v0.9.3).
    key: 'use_kt',
    applies: (v) => v.kind === 'scalar' && v.value === true,
    message: '`use_kt` under ZeRO-3 stops LLaMA-Factory while it reads the arguments ("KTransformers is incompatible with DeepSpeed ZeRO-3."). Turn KTransformers off, or use ZeRO-2.',
    since: '0.9.4',
  },
  {
    // On-the-fly HQQ and EETQ quantization: src/llamafactory/model/model_utils/quantization.py@v0.8.3:184-200,
    // @ff6d4d1:206-223 (absent @v0.8.2). Only bit widths each method accepts: another stops on its own check first.
    key: 'quantization_method',
    applies: (v, root) => {
      const bits = scalar(root.get('quantization_bit'));
      const method = scalar(v);
      return (method === 'hqq' && [1, 2, 3, 4, 5, 6, 8].includes(bits as number)) || (method === 'eetq' && bits === 8);
    },
    message: 'HQQ and EETQ quantization under ZeRO-3 stop LLaMA-Factory when it loads the model ("HQQ quantization is incompatible with DeepSpeed ZeRO-3 or FSDP." / "EETQ quantization is incompatible with DeepSpeed ZeRO-3 or FSDP."). Use 4-bit bitsandbytes quantization (`quantization_method: bnb`, `quantization_bit: 4`), or ZeRO-2.',
    since: '0.8.3',
  },
  {
    // LoRA adapters merged from a list: src/llmtuner/model/adapter.py@v0.5.0:76-77, src/llamafactory/model/adapter.py
    // @ff6d4d1:169-170 (absent @v0.4.0). The list is the comma-separated value (hparams/model_args.py@ff6d4d1:211);
    // LoRA is LLaMA-Factory's default `finetuning_type`, and another type refuses any adapter first.
    key: 'adapter_name_or_path',
    applies: (v, root) => {
      const type = scalar(root.get('finetuning_type'));
      const paths = scalar(v);
      return typeof paths === 'string' && paths.split(',').length > 1 && (type === undefined || type === 'lora');
    },
    message: 'Several LoRA adapters in `adapter_name_or_path` under ZeRO-3 stop LLaMA-Factory when it sets the adapters up ("Cannot use multiple adapters in DeepSpeed ZeRO-3."). Merge them into the model first and name one adapter, or use ZeRO-2.',
    since: '0.5.0',
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
    summary: 'LLaMA-Factory settings its own checks refuse when the DeepSpeed JSON runs ZeRO-3: 8-bit bitsandbytes (any bitsandbytes in 0.1.7 to 0.5.3, a note for 4-bit), HQQ and EETQ quantization, `pure_bf16`, `predict_with_generate`, `use_unsloth`, `pissa_init`, `use_kt`, several LoRA adapters.',
    why: 'LLaMA-Factory stops on these before training: `quantization_bit: 8` with ZeRO-3 when it loads the model ("Only 4-bit quantized model can use fsdp+qlora or auto device map", `model/model_utils/quantization.py`, from 0.6.2), as it does HQQ and EETQ quantization (from 0.8.3); `pure_bf16` (from 0.8.3), `predict_with_generate` (from 0.9.0), `use_unsloth` (from 0.8.0), `pissa_init` (from 0.8.3) and `use_kt` (from 0.9.4) with ZeRO-3 while it reads the arguments (`hparams/parser.py`); and a comma-separated list of LoRA adapters in `adapter_name_or_path` when it sets them up ("Cannot use multiple adapters in DeepSpeed ZeRO-3.", `model/adapter.py`, from 0.5.0). LLaMA-Factory 0.1.7 to 0.5.3 refused any bitsandbytes quantization under ZeRO-3 ("DeepSpeed ZeRO-3 is incompatible with quantization."), and 0.6.0 and 0.6.1 took both widths; as current releases take 4-bit, it gets a note naming those releases. A warning, not an error: the recipe does not say which LLaMA-Factory release reads it, and the message names the release each check first appears in.',
    bad: 'model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\nfinetuning_type: lora\nquantization_bit: 8\ndeepspeed: ds_z3_config.json\noutput_dir: out\n',
    good: 'model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\nfinetuning_type: lora\ndeepspeed: ds_z3_config.json\noutput_dir: out\n',
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
        ...(c.before ? { severity: 'information' as const } : {}),
        message: `${c.message} (${m.deepspeed.ref} runs ZeRO-3; LLaMA-Factory refuses this ${c.before ? `from ${c.since} to before ${c.before}` : `from ${c.since} on`}, as read up to 0.9.5${c.earlier ? `; ${c.earlier}` : ''}.)`,
      });
    }
  },
});
