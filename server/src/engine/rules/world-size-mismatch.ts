/**
 * world-size-mismatch: the model-parallel degrees do not divide the world size (Megatron), or a
 * device mesh does not multiply out to it (accelerate's `parallelism_config`).
 */
import { allKnown, divisors, fieldPath, knobEdit, meshSize, modelSize } from '../plan/layout';
import type { Plan } from '../plan/plan';
import type { PathEdit } from '../syntax/sourcedoc';
import { MLM_FLAG_FORMATS } from '../formats/megatron/model';
import { versionAtLeast } from '../version';
import { defineRule, type FixSpec, type RelatedSpec } from './rule';

/** The first Megatron Core release whose argument checks no longer cut TP and PP down to the world. */
const UNCAPPED_SINCE = '0.9.0';

/** The PP releases before 0.9.0 run, when cutting TP to the world and PP to the world over TP makes the layout divide the world. */
function cappedPp(p: Plan, world: number): number | undefined {
  const tp = Math.min(p.tp.value, world);
  const pp = Math.min(p.pp.value, Math.floor(world / tp));
  return world % tp === 0 && world % (tp * pp * p.cp.value) === 0 ? pp : undefined;
}

/** Where the degrees of the layout are written (a degree left at its default has no place). */
function degreeLines(fields: [string, Plan['tp']][]): RelatedSpec[] {
  return fields.flatMap(([name, f]) => (f.from.kind === 'written' ? [{ at: f.from.path, on: 'entry' as const, message: `${name} ${f.value} is set here` }] : []));
}


export default defineRule({
  id: 'world-size-mismatch',
  severity: 'error',
  formats: 'all',
  forks: true,
  fixes: {
    'set-world': { applicability: 'unsafe', changes: 'the number of GPUs' },
    'set-degree': { applicability: 'unsafe', changes: 'the layout' },
  },
  verifyFixes: true,
  docs: {
    summary: 'TP × PP × CP does not divide the number of GPUs, or a device mesh does not multiply out to it.',
    why: 'Megatron splits the world into model replicas of TP × PP × CP ranks and stops at startup when they do not tile it ("world size is not divisible by total_model_size"); Megatron-LM before 0.9.0 first cut TP to the world and PP to what was left, and ran that other layout without a word when it tiled (a warning, unless the release is known to stop). Accelerate\'s `parallelism_config` builds a device mesh whose dimensions must multiply to exactly `num_processes` ("ParallelismConfig total_size does not match num_processes"). Either way no GPU-hour is spent, but the job is gone from the queue.',
    bad: 'distributed_type: MEGATRON_LM\nnum_processes: 8\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 2\n  megatron_lm_context_parallel_size: 1\n',
    good: 'distributed_type: MEGATRON_LM\nnum_processes: 16\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 2\n  megatron_lm_context_parallel_size: 1\n',
    fix: 'Offers the nearest consistent layouts: the world size as the nearest multiple of the model size, or a smaller degree that divides it (the derived DP follows).',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 36 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --pipeline-model-parallel-size 3 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 36 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 4 --pipeline-model-parallel-size 2 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `megatron/training/arguments.py`: the world size must be divisible by TP × PP × CP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/training/arguments.py#L370-L375' },
    ],
  },
  check(ctx) {
    const p = ctx.plan;
    if (!p?.world) return;
    if (!allKnown(p.tp, p.pp, p.cp, p.dpReplicate, p.dpShard, p.spDegree, p.encoder)) return;
    const world = p.world.value;
    if (p.style === 'megatron') {
      const model = modelSize(p);
      if (world % model === 0) return;
      // Megatron-LM's argument checks before 0.9.0 cut TP to the world and PP to what is left, and
      // run when that divides the world (megatron/training/arguments.py@core_v0.8.0): then the file
      // runs another layout on those releases and stops from 0.9.0, which is true whatever the
      // release, a warning; an error only where the release is known to be one that stops.
      const cut = (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) ? cappedPp(p, world) : undefined;
      const stops = cut === undefined || (ctx.schemaVersion !== undefined && versionAtLeast(ctx.schemaVersion, UNCAPPED_SINCE) && ctx.atLeast(UNCAPPED_SINCE));
      const product = `${world} GPUs${worldSource(p)} are not divisible by TP ${p.tp.value} × PP ${p.pp.value} × CP ${p.cp.value}${p.encoder ? ` + the encoder's ${p.encoder.value} ranks` : ''} = ${model}${p.cp.from.kind === 'default' && p.cp.value > 1 ? ` (CP ${p.cp.value} is ${p.runtime}'s default)` : ''}`;
      ctx.report({
        at: fieldPath(p, p.world, 'world'),
        on: 'value',
        severity: stops ? undefined : 'warning',
        related: degreeLines([['TP', p.tp], ['PP', p.pp], ['CP', p.cp]]),
        message: stops
          ? `${product}: Megatron stops at startup ("world size (${world}) is not divisible by total_model_size"). Use a multiple of ${model} GPUs, or degrees whose product divides ${world}.`
          : `${product}: Megatron-LM from ${UNCAPPED_SINCE} stops at startup ("world size (${world}) is not divisible by total_model_size"), and releases before it cut PP to ${cut} without a word and run TP ${Math.min(p.tp.value, world)} × PP ${cut}, not the layout written. Use a multiple of ${model} GPUs, or degrees whose product divides ${world}.`,
        fixes: megatronFixes(p, world, model),
      });
      return;
    }
    if (p.style !== 'mesh' && p.style !== 'data-parallel') return;
    const mesh = meshSize(p);
    const explicitMesh = [p.tp, p.cp, p.dpReplicate, p.dpShard, p.spDegree].some((f) => f.from.kind === 'written');
    if (!explicitMesh || mesh === 1 || mesh === world) return;
    // parallelism_config.py@v1.13.0: with DeepSpeed's sequence parallelism (the only SP backend) the
    // check is skipped, DeepSpeed building the SP groups over the whole world itself.
    if (ctx.format === 'accelerate' && p.spDegree.value > 1 && ctx.atLeast('1.13.0')) return;
    ctx.report({
      at: fieldPath(p, p.world, 'world'),
      on: 'value',
      related: degreeLines([['dp_replicate', p.dpReplicate], ['dp_shard', p.dpShard], ['cp', p.cp], ['sp', p.spDegree], ['tp', p.tp]]),
      message: `The device mesh is dp_replicate ${p.dpReplicate.value} × dp_shard ${p.dpShard.value} × cp ${p.cp.value} × sp ${p.spDegree.value} × tp ${p.tp.value} = ${mesh} ranks, but \`num_processes\` is ${world}: accelerate stops ("ParallelismConfig total_size (${mesh}) does not match num_processes (${world})"). Make the product equal ${world}.`,
      fixes: meshFixes(p, world, mesh),
    });
  },
});

function megatronFixes(p: Plan, world: number, model: number): FixSpec[] {
  const fixes: FixSpec[] = [];
  const nodes = p.nodes.value;
  const step = lcm(model, nodes);
  const up = Math.ceil(world / step) * step;
  const down = Math.floor(world / step) * step;
  const setWorld = (n: number) => knobEdit(p, 'world', n);
  for (const n of [up, down]) {
    const e = setWorld(n);
    if (e && n > 0 && !fixes.some((f) => f.title.includes(` ${n} `))) fixes.push({ kind: 'set-world', title: `Use ${n} GPUs`, edits: [e] });
  }
  // Or shrink one degree to the largest value that divides what the others leave.
  for (const [knob, field, name] of [['tp', p.tp, 'TP'], ['pp', p.pp, 'PP'], ['cp', p.cp, 'CP']] as const) {
    const rest = model / field.value;
    if (world % rest !== 0) continue;
    const best = divisors(world / rest).filter((d) => d < field.value).pop();
    const e = best !== undefined ? knobEdit(p, knob, best) : undefined;
    if (e && best! >= 1) fixes.push({ kind: 'set-degree', title: `Set ${name} to ${best}`, edits: [e] });
  }
  if (fixes[0]) fixes[0].recommended = true;
  return fixes;
}

function meshFixes(p: Plan, world: number, mesh: number): FixSpec[] {
  const fixes: FixSpec[] = [];
  const e = knobEdit(p, 'world', mesh);
  if (e && mesh % p.nodes.value === 0) fixes.push({ kind: 'set-world', title: `Set \`num_processes\` to ${mesh}`, edits: [e] });
  for (const [knob, field, name] of [['dpShard', p.dpShard, 'dp_shard'], ['dpReplicate', p.dpReplicate, 'dp_replicate']] as const) {
    const rest = mesh / field.value;
    if (world % rest !== 0) continue;
    const edits: PathEdit[] = [];
    const edit = knobEdit(p, knob, world / rest);
    if (edit) edits.push(edit);
    if (edits.length) fixes.push({ kind: 'set-degree', title: `Set ${name} to ${world / rest}`, edits });
  }
  if (fixes[0]) fixes[0].recommended = true;
  return fixes;
}

/** Where the world size came from, when it is not written in the file. */
function worldSource(p: Plan): string {
  const from = p.world!.from;
  if (from.kind === 'written') return '';
  if (from.kind === 'derived') return ` (${from.formula.replace(/^world = /, '')})`;
  return ` (${'note' in from ? from.note : 'assumed'})`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}
