/**
 * fp8-config-invalid: FP8/FP4 arguments that Megatron rejects together (`--fp16` with `--bf16` is
 * fp16-and-bf16-enabled's).
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, cliTranslatedOn, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { untracked } from './certain';
import { defineRule, type RuleContext } from './rule';

/**
 * Megatron-LM's own checks under torch FSDP2 turn `--fp8-param-gather` off with a warning when
 * Transformer Engine is 2.0 or later (training/arguments.py@core_v0.14.0:587-592), before Megatron
 * Core sees it: with a Transformer Engine the file cannot show, whether anything stops is not known.
 */
function fsdp2Clears(m: MegatronModel): boolean {
  return argOn(m, 'use_torch_fsdp2') && argOn(m, 'fp8_param_gather') && !argOn(m, 'fp8_param');
}

const FP8_PARAM_MESSAGE = () => 'FP8 parameters need FP8 training: Megatron stops ("fp8_param must be used together with fp8 mode"). Add `--fp8-format e4m3` (or `hybrid`), or turn the FP8 parameters off.';

/**
 * FP4 parameters without FP4 training. On Megatron-LM's command line its own argument checks refuse
 * it first (training/arguments.py@core_v0.15.0:692-693, @core_v0.19.0:1069-1070); a `--yaml-cfg` run
 * skips them (initialize.py@core_v0.15.0:85-88 runs validate_yaml instead), and Bridge and NeMo never
 * run them, so there Megatron Core refuses it when it builds the transformer config
 * (transformer_config.py@core_v0.15.0:799-800). The advice names the key of the file's own format:
 * `--fp4-format` sets the field `fp4`.
 */
const FP4_PARAM_MESSAGE = (m: MegatronModel) => `FP4 parameters need FP4 training: ${m.args.configFields
  ? 'Megatron Core stops when it builds the transformer config ("fp4_param must be used together with fp4 mode.")'
  : 'Megatron-LM\'s argument checks stop at startup ("--fp4-param-gather must be used together with --fp4-format."), and Megatron Core\'s transformer config would refuse it next ("fp4_param must be used together with fp4 mode.")'}. Add ${named(m, '--fp4-format', 'e2m1')}, or turn the FP4 parameters off.`;

// `--fp8-param-gather` sets TransformerConfig's fp8_param from the command line; a `--yaml-cfg` file's
// top-level fp8_param_gather feeds only the gradient buffers (yaml_arguments.py@core_v0.19.0:391-401).
const fp8ParamWithoutFp8 = (m: MegatronModel) => (argOn(m, 'fp8_param') || cliTranslatedOn(m, 'fp8_param_gather')) && !argValue(m, 'fp8');

const CHECKS: ArgCheck[] = [
  {
    when: (m) => (argValue(m, 'fp8') && argValue(m, 'fp4') ? 'fp4' : undefined),
    // training/arguments.py@core_v0.15.0:688-689 on the command line; transformer_config.py@core_v0.15.0:802-803
    // (@core_v0.19.0:1454-1455) for a config file, which Megatron-LM's argument checks never see.
    message: (m) => `FP8 and FP4 training are exclusive: Megatron stops (${m.args.configFields ? '"fp4 and fp8 cannot be used simultaneously"' : '"--fp4-format and --fp8-format cannot be used simultaneously"'}). Keep one of \`--fp8-format\` and \`--fp4-format\`.`,
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
    when: (m) => (argValue(m, 'fp8') && (argValue(m, 'fp8_recipe') ?? 'delayed') === 'delayed' && argOn(m, 'first_last_layers_bf16') ? 'first_last_layers_bf16' : undefined),
    message: () => 'Keeping the first and last layers in BF16 does not work with the delayed-scaling FP8 recipe: Megatron stops ("Delayed scaling does not support first / last layer in BF16"). Use `--fp8-recipe tensorwise` (current scaling) or another recipe.',
  },
];

/**
 * The BF16 layer count at the start or end, with FP8 and `--first-last-layers-bf16`, that is more than
 * the layers of a pipeline stage (num_layers // PP), when every input is written.
 */
function bf16EdgeTooMany(m: MegatronModel): { dest: string; n: number; most: number } | undefined {
  if (!argValue(m, 'fp8') || !argOn(m, 'first_last_layers_bf16')) return undefined;
  const layers = argNum(m, 'num_layers');
  const pp = argAbsent(m, 'pipeline_model_parallel_size') ? 1 : argNum(m, 'pipeline_model_parallel_size');
  if (layers === undefined || !pp) return undefined;
  const most = Math.floor(layers / pp);
  for (const dest of ['num_layers_at_start_in_bf16', 'num_layers_at_end_in_bf16']) {
    // Either count is enough: one left out (which a Bridge override leaves to its recipe) is not read.
    if (untracked(m.args).get(dest) === undefined) continue;
    const n = argNum(m, dest);
    if (n !== undefined && n > most) return { dest, n, most };
  }
  return undefined;
}

/** TransformerConfig.__post_init__'s other low-precision checks (transformer_config.py; the first and last tag beside each). */
const REUSE = '`--reuse-grad-buf-for-mxfp8-param-ag`';
/**
 * The MXFP8 gradient-buffer reuse is on as the configs get it: Megatron-LM turns it off for
 * Megatron-FSDP from 0.18 (training/arguments.py@core_v0.18.0:1121), in 0.16 and 0.17 only under
 * `--fsdp-manual-registration` (@core_v0.16.0:693-698, @core_v0.17.0:969-974), and not before (0.14
 * and 0.15 build the same DDP config for Megatron-FSDP, training.py@core_v0.15.0:947-977).
 */
const reuseOn = (m: MegatronModel, ctx: RuleContext<MegatronModel>) => {
  if (!argOn(m, 'reuse_grad_buf_for_mxfp8_param_ag')) return false;
  if (argOff(m, 'use_megatron_fsdp') && argOff(m, 'use_custom_fsdp')) return true;
  if (ctx.atLeast('0.18.0')) return false;
  return !(ctx.atLeast('0.16.0') && !argOff(m, 'fsdp_manual_registration'));
};

const MORE_CHECKS: ArgCheck[] = [
  {
    // distributed_data_parallel_config.py@core_v0.13.0:117-118 to @d98e8a6:259-260: Megatron-LM
    // builds the DDP config from the arguments of the same names when it wraps the model.
    when: (m, _p, ctx) => (reuseOn(m, ctx) && argOff(m, 'fp8_param_gather') ? 'reuse_grad_buf_for_mxfp8_param_ag' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    message: () => `${REUSE} without \`--fp8-param-gather\`: the gradient buffer is reused to all-gather MXFP8 parameters, which exist only when the parameters are kept in FP8, and Megatron Core stops when it builds the DDP config ("Reuse grad buffer only when keeping params in MXFP8."). Add \`--fp8-param-gather\` (with \`--fp8-recipe mxfp8\`), or drop ${REUSE}.`,
  },
  {
    // optimizer_config.py@core_v0.19.0:424-428, the same at d98e8a6: Megatron-LM builds the optimizer
    // config from the arguments of the same names (training.py get_megatron_optimizer_config).
    when: (m, _p, ctx) => (reuseOn(m, ctx) && argOn(m, 'fp8_param_gather') && argOn(m, 'overlap_param_gather_with_optimizer_step') ? 'reuse_grad_buf_for_mxfp8_param_ag' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.19.0',
    message: () => `${REUSE} with \`--overlap-param-gather-with-optimizer-step\`: Megatron Core stops when it builds the optimizer config ("overlap_param_gather_with_optimizer_step is not supported with reuse_grad_buf_for_mxfp8_param_ag."). Drop one of them.`,
  },
  {
    // training/arguments.py@core_v0.13.0 to @core_v0.15.0:3323: the two Kitchen flags are a mutually exclusive group.
    when: (m) => (argGiven(m, 'kitchen_config_file') && argGiven(m, 'kitchen_recipe_number') ? 'kitchen_recipe_number' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
    before: '0.16.0',
    message: () => '`--kitchen-config-file` and `--kitchen-recipe-number` both choose the Kitchen quantization recipe, and Megatron-LM\'s parser takes one or the other: argparse stops at startup ("not allowed with argument"). Keep one.',
  },
  {
    // From 0.16.0 megatron/core/extensions/kitchen.py is a public stub (`HAVE_KITCHEN = False`), and
    // training/arguments.py@core_v0.16.0:2878 adds the Kitchen flags only `if HAVE_KITCHEN`.
    when: (m) => (argGiven(m, 'kitchen_config_file') ? 'kitchen_config_file' : argGiven(m, 'kitchen_recipe_number') ? 'kitchen_recipe_number' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    severity: 'warning',
    message: (m) => `${named(m, argGiven(m, 'kitchen_config_file') ? '--kitchen-config-file' : '--kitchen-recipe-number')}: from Megatron Core 0.16 the public Megatron-LM defines the Kitchen flags only when the private Kitchen extension replaces its stub (megatron/core/extensions/kitchen.py sets \`HAVE_KITCHEN = False\`), so without it argparse stops at startup ("unrecognized arguments"). This assumes the public Megatron-LM, without the Kitchen extension.`,
  },
  {
    // training/arguments.py@core_v0.16.0:1371-1383, @core_v0.17.0:1716; training/argument_utils.py@core_v0.18.0:361,
    // @d98e8a6:356-366: a Kitchen flag sets the quantization recipe first, and the TE precision file asserts there is none.
    when: (m) => (argGiven(m, 'te_precision_config_file') && (argGiven(m, 'kitchen_config_file') || argGiven(m, 'kitchen_recipe_number')) ? 'te_precision_config_file' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    message: (m) => `\`--te-precision-config-file\` with ${argGiven(m, 'kitchen_config_file') ? '`--kitchen-config-file`' : '`--kitchen-recipe-number`'}: both set the quantization recipe, and with the Kitchen extension installed Megatron-LM stops when it builds the model config ("Quantization recipe already configured."); without it the Kitchen flag is unrecognized. Keep one of them.`,
  },
  {
    // @core_v0.15.0:799-800 to @d98e8a6:1578-1579 (fp4_param is --fp4-param-gather on the command line);
    // Megatron-LM's own checks refuse it first from 0.15 (training/arguments.py@core_v0.15.0:692-693, @core_v0.19.0:1069-1070).
    // Under torch FSDP2 Megatron-LM clears the flag with an old Transformer Engine, a version the file cannot show.
    when: (m) => ((argOn(m, 'fp4_param') || cliTranslatedOn(m, 'fp4_param_gather')) && !argValue(m, 'fp4') && !(cliTranslatedOn(m, 'fp4_param_gather') && argOn(m, 'use_torch_fsdp2')) ? (m.args.get('fp4_param_gather') ? 'fp4_param_gather' : 'fp4_param') : undefined),
    since: '0.15.0',
    message: FP4_PARAM_MESSAGE,
  },
  {
    // @core_v0.18.0:1300-1306 to @d98e8a6:1569-1575: FP8 mode, and the MXFP8 recipe (the default is delayed).
    when: (m) => (argOn(m, 'fp8_output_proj') && (!argValue(m, 'fp8') || argValue(m, 'fp8_recipe') !== 'mxfp8') ? 'fp8_output_proj' : undefined),
    since: '0.18.0',
    message: (m) => argValue(m, 'fp8')
      ? `${named(m, '--fp8-output-proj')} with the FP8 recipe \`${String(argValue(m, 'fp8_recipe') ?? 'delayed')}\`${argValue(m, 'fp8_recipe') ? '' : ' (the default)'}: the FP8 output projection exists only for MXFP8, and Megatron Core stops when it builds the transformer config ("fp8_output_proj requires fp8_recipe='mxfp8'"). Set ${named(m, '--fp8-recipe', 'mxfp8')}, or drop ${named(m, '--fp8-output-proj')}.`
      : `${named(m, '--fp8-output-proj')} without FP8 training: Megatron Core stops when it builds the transformer config ("fp8_output_proj must be used together with fp8 mode."). Add ${named(m, '--fp8-format', 'e4m3')} with ${named(m, '--fp8-recipe', 'mxfp8')}, or drop the flag.`,
  },
  {
    // @core_v0.12.0:611-612 only (gone at core_v0.13.0).
    when: (m) => (argValue(m, 'fp8') && argValue(m, 'fp8_recipe') === 'mxfp8' && (argOn(m, 'fp8_param') || cliTranslatedOn(m, 'fp8_param_gather')) ? (m.args.get('fp8_param_gather') ? 'fp8_param_gather' : 'fp8_param') : undefined),
    since: '0.12.0',
    before: '0.13.0',
    message: (m) => `FP8 parameters with ${named(m, '--fp8-recipe', 'mxfp8')}: Megatron Core 0.12 stops when it builds the transformer config ("MXFP8 currently does not support fp8_param."). Drop the FP8 parameter flag, use another recipe, or use Megatron Core 0.13 or later.`,
  },
  {
    // @core_v0.16.0:1019-1026 to @d98e8a6:1558-1565.
    when: (m) => (argValue(m, 'fp8') && argValue(m, 'fp8_recipe') === 'custom' && !argGiven(m, 'fp8_quantizer_factory') ? 'fp8_recipe' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--fp8-recipe', 'custom')} without ${named(m, '--fp8-quantizer-factory')}: the custom recipe builds its quantizers from that factory, and Megatron Core stops when it builds the transformer config ("fp8_quantizer_factory must be provided when fp8_recipe is 'custom'"). Give the import path of the factory, or use a built-in recipe.`,
  },
  {
    // @core_v0.16.0:1037-1044 to @d98e8a6:1584-1591.
    when: (m) => (argValue(m, 'fp4') && argValue(m, 'fp4_recipe') === 'custom' && !argGiven(m, 'fp4_quantizer_factory') ? 'fp4_recipe' : undefined),
    since: '0.16.0',
    message: (m) => `${named(m, '--fp4-recipe', 'custom')} without ${named(m, '--fp4-quantizer-factory')}: the custom recipe builds its quantizers from that factory, and Megatron Core stops when it builds the transformer config ("fp4_quantizer_factory must be provided when fp4_recipe is 'custom'"). Give the import path of the factory, or use \`nvfp4\`.`,
  },
  {
    // @core_v0.12.0:586-608 to @d98e8a6:1533-1555 (the same test of the start and end counts).
    when: (m) => bf16EdgeTooMany(m)?.dest,
    since: '0.12.0',
    message: (m) => {
      const e = bf16EdgeTooMany(m)!;
      return `${named(m, `--${e.dest.replace(/_/g, '-')}`, String(e.n))} with FP8 and ${named(m, '--first-last-layers-bf16')}: the BF16 layers at each end must fit in one pipeline stage (${e.most} layers), and Megatron Core stops when it builds the transformer config ("${e.dest} (${e.n}) must be between 0 and number of layers per pipeline stage (${e.most})"). Use at most ${e.most}.`;
    },
  },
];

export default defineRule<MegatronModel>({
  id: 'fp8-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'FP8 and FP4 arguments that Megatron rejects together (FP8 with FP4, FP8 or FP4 parameters without FP8 or FP4 training, FP8 parameter all-gather without a sharded optimizer, BF16 edge layers with delayed scaling or more than a pipeline stage holds, a custom recipe without its quantizer factory, the FP8 output projection without MXFP8, the MXFP8 gradient-buffer reuse without FP8 parameters or with the parameter all-gather overlapped into the optimizer step).',
    why: 'Megatron validates the low-precision arguments at startup and in the transformer config; each of these combinations stops the run before the first step. Megatron Core\'s transformer config refuses FP4 parameters (`--fp4-param-gather`) without `--fp4-format` (from 0.15), a `custom` FP8 or FP4 recipe without `--fp8-quantizer-factory` or `--fp4-quantizer-factory` (from 0.16), BF16 edge layers (`--num-layers-at-start-in-bf16`, `--num-layers-at-end-in-bf16`) more than the layers of a pipeline stage (from 0.12), `--fp8-output-proj` without FP8 or with a recipe other than `mxfp8` (from 0.18; the default recipe is delayed scaling), and, in 0.12 only, FP8 parameters with the `mxfp8` recipe. When a Megatron-LM run wraps the model and builds its optimizer, Megatron Core also refuses `--reuse-grad-buf-for-mxfp8-param-ag` without `--fp8-param-gather` (from 0.13) and beside `--overlap-param-gather-with-optimizer-step` (from 0.19); Megatron-LM turns the reuse off for Megatron-FSDP from 0.18 (in 0.16 and 0.17 only under `--fsdp-manual-registration`), so such a run is judged only before that; earlier Megatron-FSDP builds the same DDP config and is refused alike. The Kitchen quantization flags (`--kitchen-config-file`, `--kitchen-recipe-number`) exclude each other from 0.13 to 0.15; from 0.16 the public Megatron-LM defines them only with the private Kitchen extension (a warning that names that assumption). From 0.16 either beside `--te-precision-config-file` stops the run too: both set the quantization recipe ("Quantization recipe already configured.").',
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
    runChecks(ctx, MORE_CHECKS);
  },
});
