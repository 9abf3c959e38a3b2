/**
 * vpp-microbatch-mismatch: interleaved pipelining with a micro-batch count it cannot schedule.
 */
import { batchStart, rampSteps, rampWritten, scheduleSteps, scheduleText, type BatchSteps, type StepBatch } from '../formats/megatron/batches';
import { inFormat } from '../formats/megatron/checks';
import { argOn, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import { fieldPath, layoutFits } from '../plan/layout';
import type { Plan } from '../plan/plan';
import { defineRule, type RuleContext } from './rule';

/**
 * What is wrong with `m` micro-batches in groups of `n` for PP `pp`, or undefined. From Megatron Core
 * 0.10 the group size must lie in [PP, M] and the last group (M mod N) be empty or hold at least PP
 * (pipeline_parallel/schedules.py@core_v0.10.0:646-663, @core_v0.15.3:975-993, @core_v0.19.0:1133-1150);
 * before, M must be a multiple of PP (@core_v0.4.0:445, @core_v0.9.0:631), the same test with N = PP.
 */
function problem(m: number, n: number, pp: number): string | undefined {
  const rest = m % n;
  if (n >= pp && n <= m && (rest === 0 || rest >= pp)) return undefined;
  return m < pp ? `are fewer than PP ${pp}` : n > m ? `are fewer than the group size ${n}` : n < pp ? `are grouped by ${n}, fewer than PP ${pp}` : `leave a last group of ${rest}, fewer than PP ${pp}`;
}

/**
 * The group size the targeted release uses for `m` micro-batches: the written
 * `--microbatch-group-size-per-virtual-pipeline-stage` (PP by default) from Megatron Core 0.10, which
 * added it; PP before. The release is asked only where the two give different verdicts.
 */
function groupFor(ctx: RuleContext, written: number | undefined, pp: number, m: number): number {
  if (written === undefined || written === pp) return pp;
  if ((problem(m, written, pp) === undefined) === (problem(m, pp, pp) === undefined)) return written;
  return ctx.atLeast('0.10.0') ? written : pp;
}

function groupsText(n: number, pp: number): string {
  return n === pp ? `groups of ${pp} (PP)` : `groups of ${n} (\`--microbatch-group-size-per-virtual-pipeline-stage\`)`;
}

export default defineRule({
  id: 'vpp-microbatch-mismatch',
  severity: 'error',
  formats: 'all',
  forks: true,
  docs: {
    summary: 'With virtual pipeline stages, the number of micro-batches of a step is below PP or not a multiple of it (with `--global-batch-size`, or with a batch the ramp-up or the step schedule reaches).',
    why: 'The interleaved schedule runs micro-batches in groups of PP per virtual stage. Megatron rejects a step whose micro-batch count M = GBS / (MBS × DP) is outside [PP, M] or leaves a remainder smaller than PP ("The number of contiguous micro-batches in a virtual pipeline stage should range in [PP, M]"; before Megatron Core 0.10, which added `--microbatch-group-size-per-virtual-pipeline-stage`, M must be a multiple of PP: "number of microbatches … is not divisible by pipeline-model-parallel-size"), on the first step that has it, after the job has started. Each step\'s GBS is that step\'s batch: with `--rampup-batch-size` (up to Megatron Core 0.17) the run starts at the ramp-up\'s first batch and grows it, and with `--step-batch-size-schedule` (Megatron-LM, from 0.18) each batch of the schedule applies in turn, so every one of them must give a count the schedule takes, not only `--global-batch-size`. A batch the run reaches only later is an error when the file writes how long the run is, a warning otherwise.',
    bad: "# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --pipeline-model-parallel-size: 4\n  --num-virtual-stages-per-pipeline-rank: 2\n  --micro-batch-size: 1\n  --global-batch-size: 6\n",
    good: "# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --pipeline-model-parallel-size: 4\n  --num-virtual-stages-per-pipeline-rank: 2\n  --micro-batch-size: 1\n  --global-batch-size: 8\n",
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 6\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --pipeline-model-parallel-size 4 --num-virtual-stages-per-pipeline-rank 2 --bf16 \\\n    --micro-batch-size 1 --global-batch-size 8\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `pipeline_parallel/schedules.py`: the micro-batches of the interleaved schedule', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/pipeline_parallel/schedules.py#L980' },
      { label: 'Megatron-LM core_v0.15.0, `num_microbatches_calculator.py`: the ramp-up sets each step\'s micro-batches from its current batch', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.0/megatron/core/num_microbatches_calculator.py#L441-L508' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p?.vpp || p.vpp.value <= 1 || p.pp.value <= 1 || !layoutFits(p)) return;
    const group = (ctx.model as MegatronModel | undefined)?.args?.get?.('microbatch_group_size_per_vp_stage');
    if (group?.unknown !== undefined) return;
    const written = typeof group?.value === 'number' ? group.value : typeof group?.value === 'string' && /^\d+$/.test(group.value) ? Number(group.value) : undefined;
    const megatron = (MEGATRON_FORMATS as readonly string[]).includes(ctx.format) ? (ctx.model as MegatronModel) : undefined;
    // Megatron-LM's step schedule sets every step's batch in place of `--global-batch-size` (from 0.18,
    // which added it; older releases stop on the flag); Megatron Bridge does not pass it on.
    if (megatron && (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) && scheduleText(megatron) !== undefined) {
      if (!ctx.atLeast('0.18.0')) return;
      const steps = scheduleSteps(megatron);
      if (steps) judgeSteps(ctx, p, steps, written);
      return;
    }
    const pp = p.pp.value;
    const m = p.numMicroBatches?.value ?? (p.globalBatch && p.microBatch && p.dp ? p.globalBatch.value / (p.microBatch.value * p.dp.value) : undefined);
    if (m === undefined || !Number.isInteger(m)) return;
    const n = groupFor(ctx, written, pp, m);
    const why = problem(m, n, pp);
    if (why) {
      // A group smaller than PP fails whatever the batch: the remedy is the group size, not the batch.
      const remedy = n < pp && m >= pp
        ? `Raise \`--microbatch-group-size-per-virtual-pipeline-stage\` to at least PP ${pp} (or remove it: it defaults to PP), with ${m} micro-batches a value that divides them or leaves at least ${pp} over.`
        : `Use a global batch that gives a multiple of ${n} micro-batches per DP rank (e.g. ${Math.max(n, Math.ceil(m / n) * n)}).`;
      ctx.report({
        at: fieldPath(p, p.globalBatch ?? p.numMicroBatches ?? p.vpp, p.globalBatch ? 'globalBatch' : 'numMicroBatches'),
        on: 'value',
        message: `With ${p.vpp.value} virtual stages, each step's ${m} micro-batches ${why}: the interleaved schedule runs them in ${groupsText(n, pp)} and Megatron fails on the first step. ${remedy}`,
      });
      return;
    }
    // A batch-size ramp-up (read up to Megatron Core 0.17): the first steps run the ramp-up's smaller batches.
    if (!megatron || !p.globalBatch || p.globalBatch.value <= 0 || !rampWritten(megatron)) return;
    const steps = rampSteps(megatron, p.globalBatch.value, (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format));
    if (steps) judgeSteps(ctx, p, steps, written);
  },
});

/**
 * The first batch of a ramp-up or a step schedule whose micro-batches the interleaved schedule
 * refuses, reported where the file writes the ramp-up or the schedule. The release is asked once a
 * batch fails (a ramp-up is read before Megatron Core 0.18, and `--decrease-batch-size-if-needed` from 0.9).
 */
function judgeSteps(ctx: RuleContext, p: Plan, steps: BatchSteps, written: number | undefined): void {
  if (!p.microBatch || !p.dp || !p.vpp || p.notTraining) return;
  const pp = p.pp.value;
  const unit = p.microBatch.value * p.dp.value;
  const model = ctx.model as MegatronModel;
  const decrease = () => steps.kind === 'ramp' && argOn(model, 'decrease_batch_size_if_needed') && ctx.atLeast('0.9.0');
  let hit: { b: StepBatch; m: number; n: number; why: string } | undefined;
  for (const b of steps.batches) {
    if (b.reached === false) return;
    let m = b.value / unit;
    if (!Number.isInteger(m)) {
      // Megatron stops there on the divisibility check first (global-batch-not-divisible), unless it lowers the batch.
      if (!decrease()) return;
      m = Math.floor(m);
      if (m === 0) return;
    }
    const n = groupFor(ctx, written, pp, m);
    const why = problem(m, n, pp);
    if (why) { hit = { b, m, n, why }; break; }
  }
  if (!hit || (steps.kind === 'ramp' && ctx.atLeast('0.18.0'))) return;
  const { b, m, n, why } = hit;
  const what = steps.kind === 'ramp' ? (b.step === 1 ? 'the ramp-up\'s starting global batch' : 'the ramp-up\'s global batch') : 'the step schedule\'s global batch';
  const whole = steps.kind === 'ramp' ? ` (\`--global-batch-size ${p.globalBatch?.value}\` itself fits)` : '';
  const far = b.reached === undefined ? ', if training runs that far (the file does not write how long it runs)' : '';
  const remedy = n < pp && m >= pp
    ? `Raise \`--microbatch-group-size-per-virtual-pipeline-stage\` to at least PP ${pp} (or remove it: it defaults to PP).`
    : `Make every batch of the ${steps.kind === 'ramp' ? 'ramp-up a multiple of' : 'schedule a multiple of'} ${unit * n} (MBS × DP × ${n === pp ? 'PP' : 'the group size'})${steps.kind === 'ramp' ? ': a start batch and an increment that are both multiples of it' : ''}, or drop the ${steps.kind === 'ramp' ? 'ramp-up' : 'schedule'}.`;
  ctx.report({
    at: steps.at,
    on: 'value',
    severity: b.reached === undefined ? 'warning' : undefined,
    message: inFormat(model, ctx.format, `With ${p.vpp.value} virtual stages, ${what} ${b.value} gives ${m} micro-batch${m === 1 ? '' : 'es'} per DP rank (${b.value} / (MBS ${p.microBatch.value} × DP ${p.dp.value})), which ${why.replace(/^are /, m === 1 ? 'is ' : 'are ').replace(/^leave /, m === 1 ? 'leaves ' : 'leave ')}${whole}: the interleaved schedule runs them in ${groupsText(n, pp)}, and Megatron fails ${batchStart(b)}${far}. ${remedy}`),
  });
}
