/**
 * fp8-config-invalid: FP8/FP4 arguments that Megatron rejects together (`--fp16` with `--bf16` is
 * fp16-and-bf16-enabled's).
 */
import { argOn, argValue, cliTranslatedOn, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { defineRule } from './rule';

/**
 * Megatron-LM's own checks under torch FSDP2 turn `--fp8-param-gather` off with a warning when
 * Transformer Engine is 2.0 or later (training/arguments.py@core_v0.14.0:587-592), before Megatron
 * Core sees it: with a Transformer Engine the file cannot show, whether anything stops is not known.
 */
function fsdp2Clears(m: MegatronModel): boolean {
  return argOn(m, 'use_torch_fsdp2') && argOn(m, 'fp8_param_gather') && !argOn(m, 'fp8_param');
}

const FP8_PARAM_MESSAGE = () => 'FP8 parameters need FP8 training: Megatron stops ("fp8_param must be used together with fp8 mode"). Add `--fp8-format e4m3` (or `hybrid`), or drop the FP8 parameter flag.';

// `--fp8-param-gather` sets TransformerConfig's fp8_param from the command line; a `--yaml-cfg` file's
// top-level fp8_param_gather feeds only the gradient buffers (yaml_arguments.py@core_v0.19.0:391-401).
const fp8ParamWithoutFp8 = (m: MegatronModel) => (argOn(m, 'fp8_param') || cliTranslatedOn(m, 'fp8_param_gather')) && !argValue(m, 'fp8');

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argValue(m, 'fp8') && argValue(m, 'fp4') ? 'fp4' : undefined),
    message: () => 'FP8 and FP4 training are exclusive: Megatron stops ("--fp4-format and --fp8-format cannot be used simultaneously"). Keep one of `--fp8-format` and `--fp4-format`.',
  },
  ...[MLM_FLAG_FORMATS, MEGATRON_FORMATS.filter((f) => !(MLM_FLAG_FORMATS as readonly string[]).includes(f))].map(
    (formats): ArgCheck => ({
      // Only Megatron-LM's own argument checks clear the flag under torch FSDP2 (see fsdp2Clears).
      when: (m) => (fp8ParamWithoutFp8(m) && !(formats === MLM_FLAG_FORMATS && fsdp2Clears(m)) ? (m.args.get('fp8_param_gather') ? 'fp8_param_gather' : 'fp8_param') : undefined),
      formats,
      // transformer_config.py@core_v0.12.0: the fp8_param check first appears (the flag came in 0.9.0);
      // TransformerConfig makes it, so a `--yaml-cfg` file's config meets it too.
      since: '0.12.0',
      yamlCfg: true,
      message: FP8_PARAM_MESSAGE,
    }),
  ),
  {
    // Before 0.14.0 Megatron-LM did not clear it under torch FSDP2.
    when: (m) => (fp8ParamWithoutFp8(m) && fsdp2Clears(m) ? 'fp8_param_gather' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.12.0',
    before: '0.14.0',
    message: FP8_PARAM_MESSAGE,
  },
  // validate_args: FP8 parameter all-gather needs a sharded optimizer (the distributed optimizer from
  // 0.9.0; or torch FSDP2 from 0.12.0; or Megatron-FSDP from 0.14.0) while training
  // (training/arguments.py@core_v0.9.0:314-316, @core_v0.12.0:550-552, @core_v0.14.0:615-617). The
  // `--yaml-cfg` reader's own checks have no such test.
  ...([
    { since: '0.9.0', before: '0.12.0', clears: ['use_distributed_optimizer'], with: 'the distributed optimizer' },
    { since: '0.12.0', before: '0.14.0', clears: ['use_distributed_optimizer', 'use_torch_fsdp2'], with: 'the distributed optimizer or torch FSDP2' },
    { since: '0.14.0', clears: ['use_distributed_optimizer', 'use_torch_fsdp2', 'use_megatron_fsdp', 'use_custom_fsdp'], with: 'the distributed optimizer, torch FSDP2 or Megatron-FSDP' },
  ].map(
    (r): ArgCheck => ({
      when: (m) => (!m.args.yamlCfg && !m.args.notTraining && argOn(m, 'fp8_param_gather') && !r.clears.some((d) => argOn(m, d)) ? 'fp8_param_gather' : undefined),
      formats: MLM_FLAG_FORMATS,
      since: r.since,
      ...(r.before ? { before: r.before } : {}),
      message: () => `\`--fp8-param-gather\` keeps the parameters in FP8 for the all-gather of a sharded optimizer, and Megatron-LM supports it only with ${r.with}: its argument checks stop at startup ("--fp8-param-gather only supported with distributed optimizer…"). Add \`--use-distributed-optimizer\`, or drop \`--fp8-param-gather\`.`,
    }),
  )),
  {
    // validate_args (training/arguments.py@core_v0.15.0:691-693, @d98e8a6:1104-1105); a `--yaml-cfg`
    // file's reader makes no such test.
    when: (m) => (argOn(m, 'fp4_param_gather') && !argValue(m, 'fp4') ? 'fp4_param_gather' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.15.0',
    message: () => '`--fp4-param-gather` without `--fp4-format`: the parameters can be kept and gathered in FP4 only when the model computes in FP4, and Megatron-LM stops at startup ("--fp4-param-gather must be used together with --fp4-format."). Add `--fp4-format e2m1`, or drop `--fp4-param-gather`.',
  },
  {
    when: (m) => (argValue(m, 'fp8') && (argValue(m, 'fp8_recipe') ?? 'delayed') === 'delayed' && argOn(m, 'first_last_layers_bf16') ? 'first_last_layers_bf16' : undefined),
    message: () => 'Keeping the first and last layers in BF16 does not work with the delayed-scaling FP8 recipe: Megatron stops ("Delayed scaling does not support first / last layer in BF16"). Use `--fp8-recipe tensorwise` (current scaling) or another recipe.',
  },
];

export default defineRule<MegatronModel>({
  id: 'fp8-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'FP8 and FP4 arguments that Megatron rejects together (FP8 with FP4, FP8 parameters without FP8, FP8 parameter all-gather without a sharded optimizer, FP4 parameter all-gather without FP4, BF16 edge layers with delayed scaling).',
    why: 'Megatron validates the low-precision arguments at startup and in the transformer config; each of these combinations stops the run before the first step.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --fp8-param-gather: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --bf16: true\n  --fp8-format: hybrid\n  --fp8-param-gather: true\n  --use-distributed-optimizer: true\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --bf16 --fp8-param-gather \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --sequence-parallel --bf16 --fp8-format hybrid --fp8-param-gather --use-distributed-optimizer \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `TransformerConfig`: FP8 parameters need FP8 mode', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/transformer/transformer_config.py#L795-L796' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
  },
});
