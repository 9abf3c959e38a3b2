/**
 * world-size-mismatch: the model-parallel degrees do not divide the world size (Megatron), or a
 * device mesh does not multiply out to it (accelerate's `parallelism_config`).
 */
import { allKnown, divisors, fieldPath, gtpFactor, knobEdit, modelSize, ppFitsShape, tpFitsShape } from '../plan/layout';
import type { Plan } from '../plan/plan';
import type { PathEdit } from '../syntax/sourcedoc';
import { MLM_FLAG_FORMATS } from '../formats/megatron/model';
import type { AccelerateModel } from '../formats/accelerate/model';
import { parallelismPassedOn, parallelSizes } from '../formats/accelerate/helpers';
import { versionAtLeast } from '../version';
import { defineRule, type FixSpec, type RelatedSpec, type RuleContext } from './rule';

/** The first Megatron Core release whose argument checks no longer cut TP and PP down to the world. */
const UNCAPPED_SINCE = '0.9.0';

/**
 * The first Accelerate release whose Megatron-LM plugin imports Megatron Core's microbatch calculator
 * (core 0.8.0 on); before it the plugin imports `megatron.arguments`, which Megatron-LM had up to
 * core 0.5, whose argument checks cut TP and PP down to the world.
 */
const ACCELERATE_NEW_MEGATRON_SINCE = '1.1.0';

/** The PP releases before 0.9.0 run, when cutting TP to the world and PP to the world over TP makes the layout divide the world. */
function cappedPp(p: Plan, world: number): number | undefined {
  const tp = Math.min(p.tp.value, world);
  const pp = Math.min(p.pp.value, Math.floor(world / tp));
  return world % tp === 0 && world % (tp * pp * p.cp.value) === 0 ? pp : undefined;
}

/**
 * What Megatron-LM says when it stops: from 0.9.0 one check of the whole model size; before it, TP
 * (cut to the world) against the world, then TP × PP × CP (arguments.py@core_v0.8.0:158-182).
 */
function stopQuote(ctx: RuleContext, p: Plan, world: number): string {
  if (ctx.atLeast(UNCAPPED_SINCE)) return `world size (${world}) is not divisible by total_model_size`;
  const tp = Math.min(p.tp.value, world);
  if (world % tp !== 0) return `world size (${world}) is not divisible by tensor model parallel size (${tp})`;
  const pp = Math.min(p.pp.value, Math.floor(world / tp));
  return `world size (${world}) is not divisible by tensor parallel size (${tp}) times pipeline parallel size (${pp}) times context parallel size (${p.cp.value})`;
}

/**
 * NeMo runs none of Megatron-LM's argument checks (formats/megatron/runtime.ts): its own model-parallel
 * setup refuses the world size (megatron_init.py fake_initialize_model_parallel, @v1.15.0:201-203,
 * @v2.4.0:313-320, worded differently across releases; 1.x tests less there, and the model-parallel
 * groups it builds next refuse the rest), so its words are not quoted.
 */
function nemoStop(ctx: RuleContext): string | undefined {
  return ctx.format === 'nemo' ? 'NeMo stops at startup (its model-parallel setup refuses a world size that the layout does not divide)' : undefined;
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
    why: 'Megatron splits the world into model replicas of TP × PP × CP ranks (from Megatron Core 0.19.0 times the weight shards over TP, when Megatron-LM\'s `--tensor-parallel-num-weight-shards` gives each weight more shards than TP ranks) and stops at startup when they do not tile it ("world size is not divisible by total_model_size"; before 0.9.0 worded by the degrees); Megatron-LM before 0.9.0 first cut TP to the world and PP to what was left, and ran that other layout without a word when it tiled (a warning, unless the release is known to stop); accelerate\'s Megatron-LM plugin runs the checks of the Megatron installed beside it, one that cuts before Accelerate 1.1.0 and an unknown one from it. Accelerate\'s `parallelism_config` builds a device mesh whose dimensions must multiply to exactly `num_processes` ("ParallelismConfig total_size does not match num_processes"), where the launch passes the section on (not under `NO` or `MULTI_CPU`, and under `DEEPSPEED` from 1.12.0, where 1.13.0 and later exempt DeepSpeed sequence parallelism from the check). A Megatron Bridge or NeMo override that writes only some of TP, PP and CP is reported when the degrees it writes already do not divide the world, whatever its recipe sets for the others. Either way no GPU-hour is spent, but the job is gone from the queue.',
    bad: 'distributed_type: MEGATRON_LM\nnum_processes: 12\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 2\n  megatron_lm_context_parallel_size: 1\n',
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
    if (!allKnown(p.tp, p.pp, p.cp, p.dpReplicate, p.dpShard, p.spDegree, p.encoder, p.weightShards)) {
      partialMegatron(ctx, p);
      return;
    }
    const world = p.world.value;
    if (p.style === 'megatron') {
      // Weight shards that are not a multiple of TP are refused before the world is looked at.
      const gtp = gtpFactor(p);
      if (gtp === undefined) return;
      const model = modelSize(p);
      if (world % model === 0) return;
      // Megatron-LM's argument checks before 0.9.0 cut TP to the world and PP to what is left, and
      // run when that divides the world (megatron/training/arguments.py@core_v0.8.0): then the file
      // runs another layout on those releases and stops from 0.9.0, which is true whatever the
      // release, a warning; an error only where the release is known to be one that stops.
      const accelerate = ctx.format === 'accelerate';
      const cut = accelerate || (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) ? cappedPp(p, world) : undefined;
      // Accelerate runs the argument checks of the Megatron-LM installed beside it: before 1.1.0 one
      // that cuts (utils/megatron_lm.py@v1.0.1 imports megatron.arguments), from 1.1.0 core 0.8 or
      // later, which release unknown.
      const oldMegatron = accelerate && cut !== undefined && !ctx.atLeast(ACCELERATE_NEW_MEGATRON_SINCE);
      // A pre-release of 0.9.0 may cut or stop: the message that says both is true of it.
      const stops = cut === undefined || (!accelerate && ctx.schemaVersion !== undefined && versionAtLeast(ctx.schemaVersion, UNCAPPED_SINCE) && ctx.atLeastIfSettled(UNCAPPED_SINCE) === true);
      const shards = gtp > 1 ? ` × ${gtp} (${p.weightShards!.value} weight shards / TP ${p.tp.value}, ranks of their own from Megatron Core 0.19.0)` : '';
      const product = `${world} GPUs${worldSource(p)} are not divisible by TP ${p.tp.value} × PP ${p.pp.value} × CP ${p.cp.value}${shards}${p.encoder ? ` + the encoder's ${p.encoder.value} ranks` : ''} = ${model}${p.cp.from.kind === 'default' && p.cp.value > 1 ? ` (CP ${p.cp.value} is ${p.runtime}'s default)` : ''}`;
      const runs = `TP ${Math.min(p.tp.value, world)} × PP ${cut}, not the layout written`;
      ctx.report({
        at: fieldPath(p, p.world, 'world'),
        on: 'value',
        severity: stops ? undefined : 'warning',
        related: degreeLines([['TP', p.tp], ['PP', p.pp], ['CP', p.cp]]),
        message: stops
          ? `${product}: ${nemoStop(ctx) ?? `Megatron stops at startup (${accelerate ? "its argument checks refuse a world size the layout does not divide" : `"${stopQuote(ctx, p, world)}"`})`}. Use a multiple of ${model} GPUs, or degrees whose product divides ${world}.`
          : oldMegatron
            ? `${product}: accelerate ${ctx.versionLabel ?? ''} runs the argument checks of a Megatron-LM of core 0.5 or older, which cut PP to ${cut} without a word and run ${runs}. Use a multiple of ${model} GPUs, or degrees whose product divides ${world}.`
            : accelerate
              ? `${product}: under accelerate's Megatron-LM plugin Megatron Core from ${UNCAPPED_SINCE} stops at startup ("world size (${world}) is not divisible by total_model_size"), and Megatron Core 0.8 cuts PP to ${cut} without a word and runs ${runs}; which Megatron Core runs here is not known (accelerate from ${ACCELERATE_NEW_MEGATRON_SINCE} works with 0.8 or later). Use a multiple of ${model} GPUs, or degrees whose product divides ${world}.`
              : `${product}: Megatron-LM from ${UNCAPPED_SINCE} stops at startup ("world size (${world}) is not divisible by total_model_size"), and releases before it cut PP to ${cut} without a word and run ${runs}. Use a multiple of ${model} GPUs, or degrees whose product divides ${world}.`,
        fixes: megatronFixes(p, world, model),
      });
      return;
    }
    const dims = meshDims(ctx, p);
    if (!dims) return;
    // parallelism_config.py@v1.11.0: before 1.12.0 the mesh has no SP dimension (total_size is dp_replicate × dp_shard × tp × cp), so a written sp_size is not read.
    const spUnread = ctx.format === 'accelerate' && dims.sp.value > 1 && !ctx.atLeast('1.12.0');
    const sp = spUnread ? 1 : dims.sp.value;
    const mesh = dims.dpReplicate.value * dims.dpShard.value * dims.cp.value * sp * dims.tp.value;
    const explicitMesh = Object.values(dims).some((f) => f.from.kind === 'written');
    if (!explicitMesh || mesh === 1 || mesh === world) return;
    // parallelism_config.py@v1.13.0: with DeepSpeed's sequence parallelism (the only SP backend) the
    // check is skipped, DeepSpeed building the SP groups over the whole world itself.
    if (ctx.format === 'accelerate' && dims.sp.value > 1 && ctx.atLeast('1.13.0')) return;
    // Only a launch that passes parallelism_config on builds the mesh (accelerate utils/launch.py).
    if (ctx.format === 'accelerate' && !parallelismPassedOn(ctx as unknown as RuleContext<AccelerateModel>)) return;
    ctx.report({
      at: fieldPath(p, p.world, 'world'),
      on: 'value',
      related: degreeLines([['dp_replicate', dims.dpReplicate], ['dp_shard', dims.dpShard], ['cp', dims.cp], ...(spUnread ? [] : [['sp', dims.sp] as [string, typeof dims.sp]]), ['tp', dims.tp]]),
      message: `The device mesh is dp_replicate ${dims.dpReplicate.value} × dp_shard ${dims.dpShard.value} × cp ${dims.cp.value}${spUnread ? '' : ` × sp ${dims.sp.value}`} × tp ${dims.tp.value} = ${mesh} ranks, but \`num_processes\` is ${world}: accelerate stops ("ParallelismConfig total_size (${mesh}) does not match num_processes (${world})"). ${spUnread ? `Accelerate ${ctx.version} does not read \`parallelism_config_sp_size\` (sequence parallelism arrived in 1.12.0), so it counts no SP dimension. ` : ''}Make the product equal ${world}.`,
      fixes: meshFixes(p, dims, world, mesh),
    });
  },
});

/**
 * A Megatron Bridge or NeMo override that writes some of TP, PP and CP and leaves the others to its
 * recipe (or, in NeMo, to an interpolation not known here): the model size is a multiple of the
 * degrees known, whatever the others are, so when their product does not divide the world Megatron
 * stops all the same. Only the known degrees above 1 are named, and the finding sits on a written one.
 */
function partialMegatron(ctx: RuleContext, p: Plan): void {
  if (p.style !== 'megatron' || (ctx.format !== 'megatron-bridge' && ctx.format !== 'nemo') || !p.world || p.encoder || p.weightShards) return;
  const degrees = [['TP', p.tp, 'tp'], ['PP', p.pp, 'pp'], ['CP', p.cp, 'cp']] as const;
  const known = degrees.filter(([, f]) => allKnown(f));
  if (known.length === 3) return;
  // A degree of 1 (a NeMo default beside one the file leaves open) adds nothing: named are those above it.
  const named = known.filter(([, f]) => f.value > 1);
  const product = named.reduce((n, [, f]) => n * f.value, 1);
  const world = p.world.value;
  if (product <= 1 || world % product === 0) return;
  const [, atField, atKnob] = named.find(([, f]) => f.from.kind === 'written') ?? named[0];
  const rest = ctx.format === 'megatron-bridge' ? 'whatever the recipe sets for the rest' : 'whatever the degrees left open are';
  ctx.report({
    at: fieldPath(p, atField, atKnob),
    on: 'value',
    related: degreeLines(named.map(([n, f]) => [n, f] as [string, typeof f])),
    message: `${world} GPUs${worldSource(p)} are not divisible by ${named.map(([n, f]) => `${n} ${f.value}`).join(' × ')}${named.length > 1 ? ` = ${product}` : ''}, and the model size TP × PP × CP is a multiple of it ${rest}: Megatron Core stops when it builds the process groups, the world not being a multiple of the model size. Use a multiple of ${product} GPUs, or degrees whose product divides ${world}.`,
  });
}

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
    // With weight shards written, TP × its factor is the shards whatever TP is: a smaller TP does not help.
    if (knob === 'tp' && p.weightShards) continue;
    const rest = model / field.value;
    if (world % rest !== 0) continue;
    // A degree Megatron refuses for the heads, query groups or layers the file writes is no fix.
    const fits = (d: number) => (knob === 'tp' ? tpFitsShape(p, d) : knob === 'pp' ? ppFitsShape(p, d) : true);
    const best = divisors(world / rest).filter((d) => d < field.value && fits(d)).pop();
    const e = best !== undefined ? knobEdit(p, knob, best) : undefined;
    if (e && best! >= 1) fixes.push({ kind: 'set-degree', title: `Set ${name} to ${best}`, edits: [e] });
  }
  if (fixes[0]) fixes[0].recommended = true;
  return fixes;
}

type MeshDims = Record<'dpReplicate' | 'dpShard' | 'cp' | 'sp' | 'tp', Plan['tp']>;

/**
 * The device mesh the layout builds: the plan's own for a mesh or data-parallel layout; under
 * accelerate's DeepSpeed (whose plan shards ZeRO over every rank) the `parallelism_config` sizes as
 * written, the section the DeepSpeed launch passes on from 1.12.0.
 */
function meshDims(ctx: RuleContext, p: Plan): MeshDims | undefined {
  if (p.style === 'mesh' || p.style === 'data-parallel') return { dpReplicate: p.dpReplicate, dpShard: p.dpShard, cp: p.cp, sp: p.spDegree, tp: p.tp };
  if (p.style !== 'zero' || ctx.format !== 'accelerate') return undefined;
  const m = ctx.model as AccelerateModel;
  if (!parallelSizes(m)) return undefined;
  const field = (dim: string): Plan['tp'] => {
    const path = ['parallelism_config', `parallelism_config_${dim}_size`];
    const v = m.view.num(path);
    return v !== undefined && Number.isInteger(v) && v >= 1 ? { value: v, from: { kind: 'written', path: m.view.source(path) ?? path } } : { value: 1, from: { kind: 'default', note: `\`parallelism_config_${dim}_size\` defaults to 1` } };
  };
  return { dpReplicate: field('dp_replicate'), dpShard: field('dp_shard'), cp: field('cp'), sp: field('sp'), tp: field('tp') };
}

function meshFixes(p: Plan, dims: MeshDims, world: number, mesh: number): FixSpec[] {
  const fixes: FixSpec[] = [];
  const e = knobEdit(p, 'world', mesh);
  if (e && mesh % p.nodes.value === 0) fixes.push({ kind: 'set-world', title: `Set \`num_processes\` to ${mesh}`, edits: [e] });
  for (const [knob, field, name] of [['dpShard', dims.dpShard, 'dp_shard'], ['dpReplicate', dims.dpReplicate, 'dp_replicate']] as const) {
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
