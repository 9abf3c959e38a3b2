/**
 * overlap-config-invalid: communication-overlap switches that Megatron-LM's argument checks refuse
 * without the switches they build on.
 *
 * megatron/training/arguments.py, validate_args:
 * - `--overlap-param-gather` needs Megatron Core's model (core_v0.6.0 to core_v0.17.0) and `--overlap-grad-reduce` (megatron/arguments.py@core_v0.5.0:174-175;
 *   training/arguments.py@core_v0.9.0:299-300, @d98e8a6:1028-1029; validate_yaml makes it too,
 *   yaml_arguments.py@core_v0.9.0:141-142, @d98e8a6:159-160).
 * - In 0.12 and 0.13 the checks first turn `--overlap-grad-reduce` on for `--data-parallel-sharding-strategy
 *   optim_grads` and both overlaps for `optim_grads_params` (@core_v0.12.0:495-500, @core_v0.13.0:587-592;
 *   derived.ts), so those files run without them.
 * - `--overlap-param-gather-with-optimizer-step` needs the distributed optimizer, `--overlap-param-gather`,
 *   the interleaved schedule, and a checkpoint format other than a distributed one (`--ckpt-format torch`;
 *   the default `torch_dist` is distributed), from core_v0.9.0 (:304-311; @d98e8a6:1066-1074).
 *
 * NeMo runs none of these (formats/megatron/runtime.ts); its GPT model makes checks of its own on the
 * same switches (nemoChecks below).
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import { switchOff, switchOn } from '../formats/megatron/derived';
import { layoutChunks } from '../plan/split';
import { untracked } from './certain';
import { defineRule, type RuleContext } from './rule';

const withStep = (m: MegatronModel): boolean => argOn(m, 'overlap_param_gather_with_optimizer_step');

/**
 * No virtual pipeline stages: none of the arguments that ask for them is written (a hybrid layer
 * pattern's `|` segments may give them, so such a file is left alone).
 */
function notInterleaved(m: MegatronModel): boolean {
  if (!argAbsent(m, 'hybrid_layer_pattern') || !argAbsent(m, 'hybrid_override_pattern')) return false;
  if (!argAbsent(m, 'num_layers_per_virtual_pipeline_stage') || !argAbsent(m, 'num_virtual_stages_per_pipeline_rank')) return false;
  if (argAbsent(m, 'pipeline_model_parallel_layout')) return true;
  // A layout with as many stages as PP gives one virtual stage per rank, which is none.
  const stages = layoutChunks(argValue(m, 'pipeline_model_parallel_layout'))?.length;
  const pp = argAbsent(m, 'pipeline_model_parallel_size') ? 1 : argNum(m, 'pipeline_model_parallel_size');
  return stages !== undefined && pp !== undefined && stages === pp;
}

const STEP = '`--overlap-param-gather-with-optimizer-step`';

const CHECKS: ArgCheck[] = [
  {
    // Megatron-LM 0.12–0.13 turn the overlaps on themselves for the sharding strategies (derived.ts).
    when: (m, _p, ctx) => (switchOn(ctx, m, 'overlap_param_gather') && switchOff(ctx, m, 'overlap_grad_reduce') ? 'overlap_param_gather' : undefined),
    message: () => '`--overlap-param-gather` without `--overlap-grad-reduce`: the parameter all-gather is overlapped through the same bucketed communication that overlaps the gradient reduction, and Megatron-LM stops at startup ("Must use --overlap-param-gather with --overlap-grad-reduce"; before Megatron Core 0.9 "--overlap-grad-reduce should be turned on when using --overlap-param-gather"). Add `--overlap-grad-reduce`, or drop `--overlap-param-gather`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.5.0',
    yamlCfg: true,
  },
  {
    // training/arguments.py@core_v0.6.0:264-265 (`--use-mcore-models` then; the legacy model was the default).
    when: (m) => (argOn(m, 'overlap_param_gather') && argOff(m, 'deprecated_use_mcore_models') ? 'overlap_param_gather' : undefined),
    message: () => '`--overlap-param-gather` without `--use-mcore-models`: before Megatron Core 0.8 the legacy model is the default, and only Megatron Core\'s model overlaps the parameter all-gather, so Megatron-LM stops at startup ("--overlap-param-gather only supported with MCore models"). Add `--use-mcore-models`, or drop `--overlap-param-gather`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.6.0',
    before: '0.8.0',
  },
  {
    // training/arguments.py@core_v0.8.0:284-285 … core_v0.17.0; gone with the legacy model in core_v0.18.0.
    when: (m) => (argOn(m, 'overlap_param_gather') && argOn(m, 'use_legacy_models') ? 'use_legacy_models' : undefined),
    message: () => '`--overlap-param-gather` with `--use-legacy-models`: only Megatron Core\'s model overlaps the parameter all-gather, and Megatron-LM stops at startup ("--overlap-param-gather only supported with MCore models"). Drop `--use-legacy-models`, or `--overlap-param-gather`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.8.0',
    before: '0.18.0',
  },
  {
    when: (m) => (withStep(m) && argOff(m, 'use_distributed_optimizer') ? 'overlap_param_gather_with_optimizer_step' : undefined),
    message: () => `${STEP} without \`--use-distributed-optimizer\`: the all-gather it overlaps with the optimizer step is the distributed optimizer's, and Megatron-LM stops at startup ("--overlap-param-gather-with-optimizer-step only supported with distributed optimizer"). Add \`--use-distributed-optimizer\` (with \`--overlap-param-gather\`), or drop ${STEP}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
  },
  {
    when: (m, _p, ctx) => (withStep(m) && switchOff(ctx, m, 'overlap_param_gather') ? 'overlap_param_gather_with_optimizer_step' : undefined),
    message: () => `${STEP} without \`--overlap-param-gather\`: it extends the parameter all-gather overlap into the optimizer step, and Megatron-LM stops at startup ("Must use --overlap-param-gather-with-optimizer-step with --overlap-param-gather"). Add \`--overlap-param-gather\`, or drop ${STEP}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
  },
  {
    when: (m) => (withStep(m) && notInterleaved(m) ? 'overlap_param_gather_with_optimizer_step' : undefined),
    message: () => `${STEP} without virtual pipeline stages: it hides the all-gather behind the first virtual stages of the next step, and Megatron-LM stops at startup ("--overlap-param-gather-with-optimizer-step only supported with interleaved pipeline parallelism"). Give virtual stages (\`--num-virtual-stages-per-pipeline-rank\` with PP above 1), or drop ${STEP}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
  },
  {
    when: (m) => {
      if (!withStep(m) || argGiven(m, 'use_dist_ckpt_deprecated')) return undefined;
      const format = argAbsent(m, 'ckpt_format') ? 'torch_dist' : argValue(m, 'ckpt_format');
      return typeof format === 'string' && format !== 'torch' ? 'overlap_param_gather_with_optimizer_step' : undefined;
    },
    message: (m) => `${STEP} with the ${argAbsent(m, 'ckpt_format') ? 'default checkpoint format `torch_dist`' : `checkpoint format \`${argValue(m, 'ckpt_format')}\``}: every format but \`torch\` is a distributed checkpoint, and Megatron-LM stops at startup ("--overlap-param-gather-with-optimizer-step not supported with distributed checkpointing yet"). Use \`--ckpt-format torch\`, or drop ${STEP}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
  },
];

/** The optimizer written, when it is text. */
const optimizerName = (m: MegatronModel): string | undefined => {
  const o = argValue(m, 'optimizer');
  return typeof o === 'string' ? o : undefined;
};
/** `'muon' in args.optimizer`: `muon` or `dist_muon` (Megatron-LM 0.16 and 0.17). */
const anyMuon = (m: MegatronModel) => optimizerName(m)?.includes('muon') === true;

/**
 * Megatron-LM 0.16 and 0.17 run Muon without the bucketed overlaps and without the distributed
 * optimizer (training/arguments.py@core_v0.16.0:1178-1185, @core_v0.17.0:1476-1482). 0.17 exempts
 * `dist_muon` from the overlap checks; 0.18 drops the block (the distributed optimizer then becomes the
 * layer-wise one for Muon).
 */
const MUON_CHECKS: ArgCheck[] = [
  ...(['overlap_grad_reduce', 'overlap_param_gather'] as const).flatMap((dest): ArgCheck[] => {
    const flag = `--${dest.replace(/_/g, '-')}`;
    const what = dest === 'overlap_grad_reduce' ? 'overlap grad reduce' : 'overlap param gather';
    return [
      {
        when: (m, _p, ctx) => (anyMuon(m) && switchOn(ctx, m, dest) ? dest : undefined),
        message: (m) => `\`${flag}\` with \`--optimizer ${optimizerName(m)}\`: Megatron-LM 0.16 stops at startup ("Muon optimizer does not support ${what} for now."). Drop \`${flag}\`, or use Megatron Core 0.18 or later, where Muon takes it.`,
        formats: MLM_FLAG_FORMATS,
        since: '0.16.0',
        before: '0.17.0',
      },
      {
        when: (m, _p, ctx) => (optimizerName(m) === 'muon' && switchOn(ctx, m, dest) ? dest : undefined),
        message: () => `\`${flag}\` with \`--optimizer muon\`: Megatron-LM 0.17 stops at startup ("Muon optimizer does not support ${what}. Use dist_muon instead."). Use \`--optimizer dist_muon\`, or drop \`${flag}\`.`,
        formats: MLM_FLAG_FORMATS,
        since: '0.17.0',
        before: '0.18.0',
      },
    ];
  }),
  {
    when: (m) => (anyMuon(m) && argOn(m, 'use_distributed_optimizer') ? 'use_distributed_optimizer' : undefined),
    message: (m) => `\`--use-distributed-optimizer\` with \`--optimizer ${optimizerName(m)}\`: before Megatron Core 0.18 Muon does not run with the distributed optimizer, and Megatron-LM stops at startup ("Muon optimizer does not support distributed optimizer for now."). Drop \`--use-distributed-optimizer\`, or use Megatron Core 0.18 or later.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.16.0',
    before: '0.18.0',
  },
];

export default defineRule<MegatronModel>({
  id: 'overlap-config-invalid',
  severity: 'error',
  formats: [...MLM_FLAG_FORMATS, 'nemo'],
  docs: {
    summary: 'Communication-overlap switches that Megatron-LM (or NeMo\'s GPT model) rejects without the ones they build on, or beside Muon before Megatron Core 0.18 (with the distributed optimizer too): `--overlap-param-gather` without `--overlap-grad-reduce` or Megatron Core\'s model, or `--overlap-param-gather-with-optimizer-step` without the distributed optimizer, `--overlap-param-gather`, virtual pipeline stages, or `--ckpt-format torch`.',
    why: 'Megatron-LM\'s argument checks stop the job at startup when `--overlap-param-gather` comes without `--overlap-grad-reduce` (from Megatron Core 0.5, and in a `--yaml-cfg` file too; in 0.12 and 0.13 `--data-parallel-sharding-strategy optim_grads` turns `--overlap-grad-reduce` on before the check, and `optim_grads_params` both overlaps, so neither is missing there) or with the legacy model (from 0.6 and before 0.18: before 0.8 unless `--use-mcore-models`, then with `--use-legacy-models`), and, from 0.9, when `--overlap-param-gather-with-optimizer-step` comes without `--use-distributed-optimizer`, without `--overlap-param-gather`, without the interleaved schedule, or with a distributed checkpoint format (every format but `torch`, and the default is `torch_dist`). Muon (`--optimizer muon` or `dist_muon`) is refused beside `--overlap-grad-reduce`, `--overlap-param-gather` or `--use-distributed-optimizer` in Megatron Core 0.16; in 0.17 only `muon` refuses the overlaps, and both still refuse the distributed optimizer; from 0.18 Muon takes all three. NeMo runs none of Megatron-LM\'s argument checks; from NeMo 2.1 its GPT model makes its own when it is built: `model.optim.overlap_param_sync` needs `overlap_grad_sync`, and `overlap_param_gather_with_optimizer_step` needs `overlap_param_sync` and virtual pipeline stages (`model.virtual_pipeline_model_parallel_size` above 1). Which NeMo runs a config is not written in it, so those findings are warnings that name the releases they assume.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --use-distributed-optimizer: true\n  --overlap-param-gather: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --use-distributed-optimizer: true\n  --overlap-grad-reduce: true\n  --overlap-param-gather: true\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --use-distributed-optimizer --overlap-param-gather \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `validate_args`: the parameter-gather overlap switches', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L990-L1040' },
      { label: 'NeMo v2.4.0, `MegatronGPTModel.__init__`: NeMo\'s own checks of the overlap switches', url: 'https://github.com/NVIDIA/NeMo/blob/v2.4.0/nemo/collections/nlp/models/language_modeling/megatron_gpt_model.py#L374-L384' },
    ],
  },
  check(ctx) {
    if (ctx.format === 'nemo') {
      nemoChecks(ctx);
      return;
    }
    runChecks(ctx, CHECKS);
    runChecks(ctx, MUON_CHECKS);
  },
});

/** The keys of `model.optim` that NeMo reads for these arguments (their `x-nemo` paths). */
const NEMO_OPTIM_KEYS: Readonly<Record<string, string>> = {
  overlap_param_gather: 'overlap_param_sync',
  overlap_grad_reduce: 'overlap_grad_sync',
  overlap_param_gather_with_optimizer_step: 'overlap_param_gather_with_optimizer_step',
};

/** What NeMo's checks assume: the file says neither which NeMo runs it nor which model class reads it. */
const NEMO_ASSUMED = ' This assumes NeMo 2.1 or later and its GPT model (MegatronGPTModel), whose constructor makes the check; earlier releases have no such check, and the file does not say which NeMo runs it.';

/**
 * NeMo's GPT model checks the overlap switches of `model.optim` itself when it is built, at every
 * release from 2.1 (megatron_gpt_model.py@v2.1.0:370-380, @v2.4.0:374-384, the same at 8cfedd7):
 * `overlap_param_gather_with_optimizer_step` needs `overlap_param_sync` and interleaved pipeline
 * parallelism (`virtual_pipeline_model_parallel_size` not None and above 1), and `overlap_param_sync`
 * needs `overlap_grad_sync`, whatever the optimizer (which otherwise decides whether the switches are
 * read at all, :596-611). A Hydra config read by that model, not NeMo 2's overrides (`MODEL_ARGS`).
 */
function nemoChecks(ctx: RuleContext<MegatronModel>): void {
  const m = ctx.model;
  const site = (dest: string) => m.args.get(dest)?.path ?? [];
  // Only the keys of `model.optim` count (`model.overlap_param_gather` is not NeMo's switch), and
  // NeMo reads each with `.get(key, False)`: one the section leaves out is off, not the optimizer's
  // own default that the layout weighs (nemo.ts `unknownDefaults`), unless a checkpoint or recipe may
  // supply it or the launch may add it. Where each is written is looked up untracked.
  const inOptim = (dest: string) => {
    const a = untracked(m.args).get(dest);
    return !!a && a.path.slice(-3).join('.') === `model.optim.${NEMO_OPTIM_KEYS[dest]}`;
  };
  const on = (dest: string) => inOptim(dest) && argOn(m, dest);
  const off = (dest: string) => (inOptim(dest) ? argOff(m, dest) : !m.args.defaultsUnknown && !m.args.open);
  ctx.separately(() => {
    if (!on('overlap_param_gather_with_optimizer_step') || !off('overlap_param_gather')) return;
    ctx.report({
      at: site('overlap_param_gather_with_optimizer_step'),
      severity: 'warning',
      message: `\`model.optim.overlap_param_gather_with_optimizer_step\` without \`model.optim.overlap_param_sync\`: it extends the parameter all-gather overlap into the optimizer step, and NeMo stops when it builds the model ("must use overlap_param_gather_with_optimizer_step with overlap_param_sync"). Add \`overlap_param_sync: true\` (with \`overlap_grad_sync: true\`), or drop it.${NEMO_ASSUMED}`,
    });
  });
  ctx.separately(() => {
    if (!on('overlap_param_gather_with_optimizer_step')) return;
    const vpp = m.args.get('virtual_pipeline_model_parallel_size');
    // NeMo asks for a value that is not None and above 1; a value it cannot compare is left alone.
    const none = vpp === undefined ? !m.args.defaultsUnknown : vpp.value === null;
    if (!none && !(typeof vpp?.value === 'number' && vpp.value <= 1)) return;
    ctx.report({
      at: site('overlap_param_gather_with_optimizer_step'),
      severity: 'warning',
      message: `\`model.optim.overlap_param_gather_with_optimizer_step\` without virtual pipeline stages: it hides the all-gather behind the first virtual stages of the next step, and NeMo stops when it builds the model ("must use overlap_param_gather_with_optimizer_step with interleaved pipeline parallelism"). Set \`model.virtual_pipeline_model_parallel_size\` above 1, or drop it.${NEMO_ASSUMED}`,
    });
  });
  ctx.separately(() => {
    if (!on('overlap_param_gather') || !off('overlap_grad_reduce')) return;
    ctx.report({
      at: site('overlap_param_gather'),
      severity: 'warning',
      message: `\`model.optim.overlap_param_sync\` without \`model.optim.overlap_grad_sync\`: NeMo overlaps the parameter all-gather only together with the gradient reduction, and stops when it builds the model ("Must use overlap_param_sync together with overlap_grad_sync"), whatever the optimizer. Add \`overlap_grad_sync: true\`, or drop \`overlap_param_sync\`.${NEMO_ASSUMED}`,
    });
  });
}
