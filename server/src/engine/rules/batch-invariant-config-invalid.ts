/**
 * batch-invariant-config-invalid: `batch_invariant_mode` beside settings Megatron Core refuses with
 * it when it builds the transformer config (TransformerConfig.__post_init__):
 *
 * - the attention backend must be `flash` (transformer_config.py@core_v0.16.0:1999-2002, to
 *   @core_v0.19.0:2875-2878 and @d98e8a6:3218-3220); its default is `auto`
 *   (transformer_config.py@core_v0.16.0:110, `--attention-backend` default auto);
 * - from core_v0.19.0: `flash_attention_version` 3 or 4 (default None), CP 1, and
 *   `attention_dropout` 0.0 (default 0.1) (transformer_config.py@core_v0.19.0:2879-2895, the same at
 *   d98e8a6:3221-3237 and at Bridge's pin 2a75ac1).
 *
 * - from 0.20: BF16 parameters (transformer_config.py@d98e8a6:3211-3214; Megatron-LM's parameters
 *   are FP32 without `--bf16`, arguments.py@d98e8a6:1194-1206). Its MoE requirements (3238-3275)
 *   are moe-config-invalid's.
 *
 * Megatron-LM builds the config from its arguments; Megatron Bridge builds the same config from its
 * `model` section, where a field the override leaves out is the recipe's, not Megatron's default.
 */
import { argAbsent, argNum, argOff, argOn, argValue, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

const on = (m: MegatronModel) => argOn(m, 'batch_invariant_mode');

/** The attention backend when it is known not to be `flash`: as written, or the default `auto`. */
function notFlash(m: MegatronModel): string | undefined {
  if (argAbsent(m, 'attention_backend')) return 'auto';
  const b = argValue(m, 'attention_backend');
  return typeof b === 'string' && ['fused', 'unfused', 'local', 'auto'].includes(b) ? b : undefined;
}

/** The FlashAttention version when it is known not to be 3 or 4: as written, or left unset. */
function notFa34(m: MegatronModel): string | undefined {
  if (argAbsent(m, 'flash_attention_version')) return 'unset';
  const v = argNum(m, 'flash_attention_version');
  return v !== undefined && v !== 3 && v !== 4 ? String(v) : undefined;
}

/** The attention dropout when it is known not to be 0: as written, or the default 0.1. */
function dropout(m: MegatronModel): number | undefined {
  if (argAbsent(m, 'attention_dropout')) return 0.1;
  const v = argValue(m, 'attention_dropout');
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d*\.?\d+(e-?\d+)?$/i.test(v) ? Number(v) : undefined;
  return n !== undefined && n !== 0 ? n : undefined;
}

/** Where to report a requirement: the argument when written, else the mode itself. */
const at = (m: MegatronModel, dest: string) => (argAbsent(m, dest) ? 'batch_invariant_mode' : dest);

const CHECKS: ArgCheck[] = [
  {
    // Megatron-LM's parameters are FP32 unless --bf16/--fp16 (arguments.py@d98e8a6:1194-1206); Bridge and NeMo set params_dtype otherwise.
    when: (m) => (on(m) && argOff(m, 'bf16') ? (argOn(m, 'fp16') ? 'fp16' : 'batch_invariant_mode') : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.20.0',
    message: (m) => `${named(m, '--batch-invariant-mode')} with ${argOn(m, 'fp16') ? `${named(m, '--fp16')} (FP16 parameters)` : 'no `--bf16` (FP32 parameters)'}: the batch-invariant kernels are BF16 only, and Megatron Core stops when it builds the transformer config ("Batch invariant mode supports BF16 model parameters only"). Train with ${named(m, '--bf16')}.`,
  },
  {
    when: (m) => (on(m) && notFlash(m) ? at(m, 'attention_backend') : undefined),
    since: '0.16.0',
    message: (m) => {
      const b = notFlash(m)!;
      return `${named(m, '--batch-invariant-mode')} with the ${argAbsent(m, 'attention_backend') ? 'attention backend left at its default, `auto`' : `attention backend ${named(m, '--attention-backend', b)}`}: batch-invariant kernels exist only for FlashAttention, and Megatron Core stops when it builds the transformer config ("Batch invariant mode only supports FlashAttention"). Set ${named(m, '--attention-backend', 'flash')}.`;
    },
  },
  {
    when: (m) => (on(m) && notFa34(m) ? at(m, 'flash_attention_version') : undefined),
    since: '0.19.0',
    message: (m) => {
      const v = notFa34(m)!;
      return `${named(m, '--batch-invariant-mode')} with ${v === 'unset' ? `no ${named(m, '--flash-attention-version')}` : named(m, '--flash-attention-version', v)}: training and inference must run the same batch-invariant FlashAttention kernel, which FlashAttention 2 does not have, so Megatron Core stops when it builds the transformer config ("Batch invariant mode requires --flash-attention-version 3 or 4"). Set ${named(m, '--flash-attention-version', '3')} (or 4).`;
    },
  },
  {
    when: (m) => (on(m) && (argNum(m, 'context_parallel_size') ?? 1) > 1 ? 'context_parallel_size' : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--batch-invariant-mode')} with ${named(m, '--context-parallel-size', String(argNum(m, 'context_parallel_size')))}: context parallelism runs Transformer Engine's FlashAttention 2 kernels, which cannot be pinned to a batch-invariant version, so Megatron Core stops when it builds the transformer config ("Batch invariant mode does not support context parallelism"). Use CP 1.`,
  },
  {
    when: (m) => (on(m) && dropout(m) !== undefined ? at(m, 'attention_dropout') : undefined),
    since: '0.19.0',
    message: (m) => `${named(m, '--batch-invariant-mode')} with ${argAbsent(m, 'attention_dropout') ? `the attention dropout left at its default, 0.1` : named(m, '--attention-dropout', String(dropout(m)))}: dropout is not batch-invariant, so Megatron Core stops when it builds the transformer config ("Batch invariant mode does not support attention dropout"). Set ${named(m, '--attention-dropout', '0')}.`,
  },
];

export default defineRule<MegatronModel>({
  id: 'batch-invariant-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'Batch-invariant mode beside settings Megatron Core refuses with it: an attention backend other than FlashAttention; from Megatron Core 0.19 no FlashAttention version 3 or 4, context parallelism, or attention dropout; from 0.20 parameters other than BF16 (what it asks of a model with experts is reported by `moe-config-invalid`).',
    why: 'Batch-invariant mode makes results independent of the batch a sample is in, with kernels of its own. From Megatron Core 0.16, where it appeared, it needs `--attention-backend flash` (the default is `auto`); from 0.19 also `--flash-attention-version 3` or 4 (unset by default), CP 1 and `--attention-dropout 0` (the default is 0.1); from 0.20 also `--bf16` (Megatron-LM\'s parameters are FP32 without it) (what 0.20 asks of a model with experts is reported by `moe-config-invalid`). So `--batch-invariant-mode` alone never starts: each is an assertion when Megatron builds the transformer config, before any training step. Megatron Bridge builds the same config; a Bridge override is judged only on what it writes itself, since the recipe may set the rest.',
    bad: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --batch-invariant-mode: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8 megatron_core=0.19.0\nMODEL_ARGS:\n  --num-layers: 32\n  --batch-invariant-mode: true\n  --attention-backend: flash\n  --flash-attention-version: 3\n  --attention-dropout: 0.0\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --batch-invariant-mode --attention-backend flash \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --batch-invariant-mode --attention-backend flash --flash-attention-version 3 --attention-dropout 0.0 \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.16.0, `TransformerConfig.__post_init__`: batch-invariant mode only with FlashAttention', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.16.0/megatron/core/transformer/transformer_config.py#L1999-L2002' },
      { label: 'Megatron-LM core_v0.19.0, `TransformerConfig.__post_init__`: FlashAttention 3 or 4, CP 1, no attention dropout', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/transformer/transformer_config.py#L2875-L2895' },
      { label: 'Megatron-LM d98e8a6 (0.20), `TransformerConfig.__post_init__`: BF16 parameters only', url: 'https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/megatron/core/transformer/transformer_config.py#L3211-L3214' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
