/**
 * layers-not-divisible-by-pp: transformer layers that the pipeline stages cannot split evenly.
 */
import { allKnown, divisors, fieldPath, knobEdit, modelSize, shapeLimits } from '../plan/layout';
import { argAbsent, argNum, argOn, argValue, MLM_FLAG_FORMATS, type MegatronModel } from '../formats/megatron/model';
import type { Plan } from '../plan/plan';
import { runChecks, type ArgCheck } from '../formats/megatron/checks';
import type { RuleContext } from './rule';
import { flagTarget } from '../formats/megatron/schema';
import { checkoutHas, repositoryHas } from '../formats/megatron/checkout';
import { defineRule, type FixSpec } from './rule';

/**
 * A hybrid model's `--hybrid-layer-pattern` with `|` sets the pipeline split itself: Megatron-LM's
 * argument checks refuse first/last stage sizes beside it, and a number of `|` segments that PP does
 * not divide (training/arguments.py@core_v0.17.0:646-700, the same at d98e8a6:802-860). A pattern
 * without `|` may be split unevenly with them.
 */
function hybridSegments(m: MegatronModel): number | undefined {
  // The old name `--hybrid-override-pattern` is read in its place (@core_v0.17.0:593-603).
  const pattern = argValue(m, 'hybrid_layer_pattern') ?? argValue(m, 'hybrid_override_pattern');
  return typeof pattern === 'string' ? pattern.split('/')[0].split('|').length : undefined;
}
const HYBRID_CHECKS: ArgCheck[] = [
  {
    when: (m) => ((hybridSegments(m) ?? 1) > 1 ? ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers'].find((d) => argNum(m, d) !== undefined) : undefined),
    message: () => 'First/last pipeline stage sizes beside a `--hybrid-layer-pattern` with `|`: the pattern\'s segments already set the layers of each stage, and Megatron-LM stops at startup. Drop the stage sizes, or write the pattern without `|`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  {
    when: (m) => {
      const segments = hybridSegments(m);
      const pp = argNum(m, 'pipeline_model_parallel_size') ?? 1;
      return segments !== undefined && segments > 1 && pp > 1 && segments % pp !== 0 ? 'hybrid_layer_pattern' : undefined;
    },
    message: (m) => `The \`--hybrid-layer-pattern\` has ${hybridSegments(m)} \`|\`-separated pipeline segments, which PP ${argNum(m, 'pipeline_model_parallel_size') ?? 1} does not divide: each pipeline rank takes the same number of segments (its virtual stages), and Megatron-LM stops at startup. Write a number of segments that is a multiple of PP.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
];

export default defineRule({
  id: 'layers-not-divisible-by-pp',
  severity: 'error',
  formats: 'all',
  forks: true,
  fixes: {
    'set-pp': { applicability: 'unsafe', changes: 'the layout' },
  },
  verifyFixes: true,
  docs: {
    summary: 'The number of layers is not a multiple of PP (or, with interleaving, of PP × layers per virtual stage), or a hybrid layer pattern\'s pipeline segments do not fit PP.',
    why: 'Without an explicit uneven split, each pipeline stage gets layers / PP layers; Megatron stops when that is not whole ("Number of layers should be divisible by the pipeline-model-parallel size"). Megatron-LM before 0.10.0 checked this only with virtual stages, and its Megatron Core model otherwise built layers // PP per stage, silently dropping the rest (a warning for those releases; the same for a NeMo config built with Megatron Core before 0.11.0, whose TransformerBlock checks it from then on); its legacy model (the default before 0.8.0 unless `--use-mcore-models`, then `--use-legacy-models`) stops on an uneven split at every release. With virtual stages, each stage\'s layers must also divide into its virtual stages. First and last stage sizes (`--decoder-first/last-pipeline-num-layers`) split unevenly, but the layers they leave must divide over the stages between them (Megatron Core stops otherwise, from 0.9); from 0.16 they must leave layers exactly when they leave stages between them; and with virtual stages (`--num-virtual-stages-per-pipeline-rank`, from 0.11) each middle stage\'s layers must divide into the virtual stages (the first and last sizes are `pipeline-config-invalid`\'s). A hybrid model\'s `--hybrid-layer-pattern` with `|` sets the split itself (from 0.17): its segments must be a multiple of PP, and first/last stage sizes beside it are refused.',
    bad: '# shardwise: model=llama-3-8b\ndistributed_type: MEGATRON_LM\nnum_processes: 24\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 3\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    good: '# shardwise: model=llama-3-8b\ndistributed_type: MEGATRON_LM\nnum_processes: 32\nmegatron_lm_config:\n  megatron_lm_tp_degree: 8\n  megatron_lm_pp_degree: 4\n  megatron_lm_context_parallel_size: 1\n  megatron_lm_sequence_parallelism: true\n',
    fix: 'Sets PP to the nearest value below that divides the layers and the world.',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 30 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 4 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 \\\n    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 4 --sequence-parallel \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.15.3, `transformer_block.py`: the layers must be divisible by PP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.15.3/megatron/core/transformer/transformer_block.py#L147-L157' },
    ],
  },
  check(ctx) {
    if ((MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format)) runChecks(ctx as unknown as RuleContext<MegatronModel>, HYBRID_CHECKS);
    const p = ctx.plan;
    // The layers the arguments write are split even when the rest of the model is not known.
    const layers = p ? shapeLimits(p).layers : undefined;
    if (!p || !layers || p.pp.value <= 1) return;
    const m = { layers };
    // Megatron-DeepSpeed under `--deepspeed` builds its pipeline with DeepSpeed's PipelineModule,
    // which partitions the layers itself (by parameters by default) and takes uneven splits.
    const root = ctx.doc.root;
    if (ctx.fork === 'Megatron-DeepSpeed' && root?.kind === 'map' && root.entries.some((e) => e.key === '--deepspeed')) return;
    // Pipeline flags Megatron-LM does not have, which the run's own parser (a fork's, the checkout's,
    // the repository's) defines (`--pipeline-model-parallel-blocks 10,11,11,10`), may split the
    // layers their own way: how is not known here.
    const own = (flag: string) => !!ctx.fork || checkoutHas(ctx.settings.megatronCheckout, flag) || repositoryHas(ctx.settings.repositoryFlags, flag);
    if (root?.kind === 'map' && root.entries.some((e) => /pipeline/.test(e.key) && !flagTarget(e.key) && own(e.key))) return;
    if (!allKnown(p.pp, p.vpp)) return;
    // A layout that does not tile the world never runs as written: releases before 0.9.0 cut PP to
    // what the world holds and split the layers over that, later ones stop on the world size first
    // (world-size-mismatch says which), so the PP written here is not the one that splits the layers.
    if (p.style === 'megatron' && p.world && allKnown(p.world, p.tp, p.cp) && p.world.value % modelSize(p) !== 0) return;
    // An explicit layout or first/last stage sizes decide the split themselves; the layers the
    // first/last sizes leave must still divide over the stages between them.
    if (p.pipelineSplit?.explicit) {
      unevenMiddle(ctx, p, layers);
      unevenStages(ctx, p, layers);
      return;
    }
    const pp = p.pp.value;
    const vpp = p.vpp?.value;
    // Counting the embedding and the loss as layers changes what must divide.
    const counted = m.layers + (p.pipelineSplit?.embedding ? 1 : 0) + (p.pipelineSplit?.loss ? 1 : 0);
    // VPP written as layers per virtual stage: each stage's layers must divide by it (Megatron-LM's
    // argparse check, megatron/training/arguments.py), else no VPP can be derived at all.
    const perVstage = p.layersPerVirtualStage?.value;
    if (counted % pp === 0 && perVstage && (counted / pp) % perVstage !== 0) {
      ctx.report({
        at: fieldPath(p, p.layersPerVirtualStage),
        on: 'value',
        message: `Each pipeline stage holds ${counted / pp} layers, which do not divide into virtual stages of ${perVstage}: Megatron stops ("number of layers per pipeline stage must be divisible number of layers per virtual pipeline stage"). Use a layer count per virtual stage that divides ${counted / pp} (${divisors(counted / pp).join(', ')}).`,
      });
      return;
    }
    if (counted % pp === 0 && !(vpp && vpp > 1 && (counted / pp) % vpp !== 0)) return;
    const fixes: FixSpec[] = [];
    const best = divisors(counted)
      .filter((d) => d < pp && (!p.world || p.world.value % (p.tp.value * p.cp.value * d) === 0))
      .pop();
    const e = best ? knobEdit(p, 'pp', best) : undefined;
    if (e) fixes.push({ kind: 'set-pp', title: `Set PP to ${best}`, edits: [e] });
    const what = counted === m.layers ? `${m.layers} layers` : `${m.layers} layers plus the ${[p.pipelineSplit?.embedding && 'embedding', p.pipelineSplit?.loss && 'loss'].filter(Boolean).join(' and ')} (${counted})`;
    // Megatron-LM's argument checks refuse an uneven split without virtual stages from 0.10.0
    // (megatron/training/arguments.py@core_v0.10.0); before, each stage built layers // PP and the
    // rest were never built (megatron/core/transformer/transformer_block.py@core_v0.9.0).
    const uneven = counted % pp !== 0;
    // Only Megatron Core's model truncates: the legacy model (the default before 0.8.0 unless
    // `--use-mcore-models`, then `--use-legacy-models`) asserts that PP divides the layers
    // (megatron/legacy/model/transformer.py@core_v0.9.0:1332-1333), so it stops at any release.
    const mlm = (MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format);
    const legacy = (): boolean => {
      const mm = ctx.model as MegatronModel | undefined;
      return !!mm && (ctx.atLeast('0.8.0') ? argOn(mm, 'use_legacy_models') : !argOn(mm, 'deprecated_use_mcore_models'));
    };
    // Where Megatron Core builds the model from a NeMo config or a Bridge override, nothing checks the
    // split before TransformerBlock asserts it from 0.11.0 (transformer_block.py@core_v0.11.0:109-111;
    // @core_v0.10.0:84 builds layers // PP); NeMo's own (non-Megatron-Core) model asserts it at every
    // release (nemo/collections/nlp/modules/common/megatron/transformer.py@v2.4.0:1330-1332).
    const nemoOwn = (): boolean => {
      const mc = (ctx.model as MegatronModel | undefined)?.mcore;
      return !!mc && !mc.value && mc.from.kind !== 'unknown';
    };
    const truncates = uneven && !(vpp && vpp > 1) && (mlm ? !ctx.atLeast('0.10.0') && !legacy() : !ctx.atLeast('0.11.0') && !nemoOwn());
    // Virtual stages that do not divide a stage: Megatron-LM's argument checks refuse them; where
    // Megatron Core builds the model from a NeMo config or a Bridge override, TransformerBlock asserts it
    // from 0.11.0 (transformer_block.py@core_v0.11.0:128-130, @d98e8a6:174-177) and before builds
    // ⌊layers per stage / VPP⌋ per chunk (@core_v0.10.0:99-101); NeMo's own model refuses them
    // (nemo/collections/nlp/modules/common/megatron/transformer.py@v2.4.0:1216-1222).
    const vppCore = !uneven && !mlm && !nemoOwn();
    const vppTruncates = vppCore && !ctx.atLeast('0.11.0');
    const advice = usable(counted);
    const message = truncates
      ? mlm
        ? `${what} do not split into PP ${pp} stages (${(counted / pp).toFixed(2)} each): Megatron-LM before 0.10.0 builds ${Math.floor(counted / pp)} per stage, ${Math.floor(counted / pp) * pp} of ${counted}, without a word, and from 0.10.0 it stops at startup. ${advice}`
        : `${what} do not split into PP ${pp} stages (${(counted / pp).toFixed(2)} each): Megatron Core before 0.11.0 builds ${Math.floor(counted / pp)} per stage, ${Math.floor(counted / pp) * pp} of ${counted}, without a word, and from 0.11.0 it stops when it builds the model ("num_layers should be divisible by pipeline_model_parallel_size"). ${advice}`
      : uneven
        ? `${what} do not split into PP ${pp} stages (${(counted / pp).toFixed(2)} each): Megatron stops at startup unless an uneven split is given. ${advice}`
        : `With ${vpp} virtual stages per pipeline rank, each stage's ${counted / pp} layers must divide into ${vpp} chunks: ${vppStop(mlm, vppCore, vppTruncates, counted, pp, vpp!)}. Choose PP and VPP with ${counted} divisible by PP × VPP.`;
    ctx.report({ at: fieldPath(p, vpp && counted % pp === 0 ? p.vpp : p.pp, 'pp'), on: 'value', severity: truncates || vppTruncates ? 'warning' : undefined, message, fixes });
  },
});

/**
 * First/last stage sizes whose leftover layers the stages between them cannot share evenly: Megatron
 * Core stops. From 0.11.0 TransformerConfig raises it ("number of layers at middle stage: … must be
 * divisible by the middle pipeline model parallel size", transformer_config.py@core_v0.11.0:638-642,
 * d98e8a6:2346-2351); in 0.9–0.10 each middle stage asserts it while it builds its layers
 * (transformer_block.py@core_v0.9.0:77-79). With virtual stages, a layout or a hybrid pattern other
 * checks come first, and those are left alone.
 */
function unevenMiddle(ctx: RuleContext, p: Plan, layers: number): void {
  const split = p.pipelineSplit;
  const mm = ctx.model as MegatronModel | undefined;
  if (!split || !mm || split.layout || split.embedding || split.loss || (p.vpp?.value ?? 1) > 1) return;
  // A hybrid model counts its layers from the pattern (a file that writes one; in an override a
  // recipe's pattern splits the same way, since the stage sizes are checked on the layer count).
  if ((MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) && argValue(mm, 'hybrid_layer_pattern') !== undefined) return;
  const { first, last } = split;
  if (first === undefined && last === undefined) return;
  // A size the file leaves out is unset only where Megatron's defaults apply (not in an override).
  if ((first === undefined && !argAbsent(mm, 'decoder_first_pipeline_num_layers')) || (last === undefined && !argAbsent(mm, 'decoder_last_pipeline_num_layers'))) return;
  const stages = p.pp.value - (first !== undefined ? 1 : 0) - (last !== undefined ? 1 : 0);
  const middle = layers - (first ?? 0) - (last ?? 0);
  if (stages < 1 || middle <= 0 || middle % stages === 0 || (first ?? 1) <= 0 || (last ?? 1) <= 0 || !ctx.atLeast('0.9.0')) return;
  const dest = last !== undefined ? 'decoder_last_pipeline_num_layers' : 'decoder_first_pipeline_num_layers';
  const sizes = [first !== undefined && `first stage ${first}`, last !== undefined && `last stage ${last}`].filter(Boolean).join(', ');
  const when = ctx.atLeast('0.11.0') ? 'at startup ("number of layers at middle stage: … must be divisible by the middle pipeline model parallel size")' : 'when the middle stages build their layers ("the left over layers must be divisible by left over stages")';
  const fits = [first, last].filter((x) => x !== undefined).length === 1 ? Array.from({ length: Math.min(layers - 1, 64) }, (_, i) => i + 1).filter((n) => (layers - n) % stages === 0 && layers - n > 0).slice(0, 6) : [];
  ctx.report({
    at: mm.args.get(dest)?.path ?? [],
    message: `With ${sizes}, the other ${stages} pipeline stage${stages > 1 ? 's' : ''} of PP ${p.pp.value} share the remaining ${middle} of ${layers} layers, which ${stages} does not divide: Megatron stops ${when}. ${fits.length ? `Give that stage a size that leaves a multiple of ${stages} (${fits.join(', ')}).` : `Choose sizes that leave a multiple of ${stages} layers.`}`,
  });
}

/**
 * First/last stage sizes that TransformerConfig refuses besides an uneven middle
 * (transformer_config.py@core_v0.19.0:1995-2062, the same at d98e8a6:2295-2370): from 0.16 the sizes
 * must leave middle layers exactly when they leave middle stages ("Mismatch"); from 0.11, with virtual
 * stages (written as `--num-virtual-stages-per-pipeline-rank`), the first and last sizes and each middle
 * rank's layers must divide into the virtual stages (the first and last sizes are pipeline-config-invalid's).
 */
function unevenStages(ctx: RuleContext, p: Plan, layers: number): void {
  const split = p.pipelineSplit;
  const mm = ctx.model as MegatronModel | undefined;
  if (!split || !mm || split.layout || split.embedding || split.loss) return;
  if ((MLM_FLAG_FORMATS as readonly string[]).includes(ctx.format) && argValue(mm, 'hybrid_layer_pattern') !== undefined) return;
  const { first, last } = split;
  if (first === undefined && last === undefined) return;
  if ((first === undefined && !argAbsent(mm, 'decoder_first_pipeline_num_layers')) || (last === undefined && !argAbsent(mm, 'decoder_last_pipeline_num_layers'))) return;
  if ((first ?? 1) <= 0 || (last ?? 1) <= 0) return;
  const stages = p.pp.value - (first !== undefined ? 1 : 0) - (last !== undefined ? 1 : 0);
  const middle = layers - (first ?? 0) - (last ?? 0);
  const dest = last !== undefined ? 'decoder_last_pipeline_num_layers' : 'decoder_first_pipeline_num_layers';
  const sizes = [first !== undefined && `first stage ${first}`, last !== undefined && `last stage ${last}`].filter(Boolean).join(', ');
  if (stages >= 0 && (stages === 0) !== (middle === 0) && middle >= 0 && ctx.atLeast('0.16.0')) {
    ctx.report({
      at: mm.args.get(dest)?.path ?? [],
      message: stages === 0
        ? `With ${sizes}, PP ${p.pp.value} has no stages between them, yet ${middle} of the ${layers} layers are left over: Megatron Core stops when it builds the model config ("Mismatch: ${middle} middle layers remaining but 0 middle PP stages available"). Make the stage sizes add up to ${layers}.`
        : `With ${sizes}, the ${layers} layers are all on the first and last stages, and the ${stages} stage${stages > 1 ? 's' : ''} between them would hold none: Megatron Core stops when it builds the model config ("Mismatch: 0 middle layers remaining but ${stages} middle PP stages available"). Give the first and last stages fewer layers.`,
    });
    return;
  }
  const vpp = p.layersPerVirtualStage ? undefined : p.vpp?.value;
  if (!vpp || vpp <= 1 || !ctx.atLeast('0.11.0') || mm.args.get('num_virtual_stages_per_pipeline_rank') === undefined) return;
  // A first or last size the virtual stages do not divide is pipeline-config-invalid's; Megatron
  // Core stops there before it looks at the middle stages.
  if ((first !== undefined && first % vpp !== 0) || (last !== undefined && last % vpp !== 0)) return;
  if (stages > 0 && middle > 0 && middle % stages === 0 && (middle / stages) % vpp !== 0) {
    ctx.report({
      at: mm.args.get(dest)?.path ?? [],
      message: `With ${sizes}, each of the ${stages} middle pipeline stage${stages > 1 ? 's' : ''} gets ${middle / stages} layers, which do not divide into its ${vpp} virtual stages: Megatron Core stops when it builds the model config ("number of layers on each middle pipeline rank: ${middle / stages} must be divisible by virtual pipeline parallel degree ${vpp}"). Choose sizes that leave each middle stage a multiple of ${vpp} layers.`,
    });
  }
}

/**
 * What to do about a layer count PP does not divide: the PPs that do, or an uneven split when none
 * does, with the release each flag of an uneven split came in (first/last stage sizes 0.9, counting
 * the embedding as a layer 0.11), so that the advice holds whatever release runs the file.
 */
/** Who stops on virtual stages that do not divide a stage's layers, or what Megatron Core builds instead (see the check). */
function vppStop(mlm: boolean, core: boolean, truncates: boolean, layers: number, pp: number, vpp: number): string {
  const quote = '("num_layers_per_pipeline_rank … should be divisible by vp_size")';
  if (mlm) return 'Megatron stops ("number of layers per pipeline stage must be divisible number of layers per virtual pipeline stage")';
  if (!core) return "NeMo's own model stops when it is built (it takes virtual stages only where they divide a stage's layers, and none from NeMo 2.4)";
  if (!truncates) return `Megatron Core stops when it builds the model ${quote}`;
  const chunk = Math.floor(layers / pp / vpp);
  return `Megatron Core before 0.11.0 builds ${chunk} per chunk, ${chunk * vpp * pp} of ${layers}, without a word, and from 0.11.0 it stops when it builds the model ${quote}`;
}

function usable(layers: number): string {
  const ok = divisors(layers).filter((d) => d > 1 && d <= 16);
  const uneven = 'give the first or last stage fewer layers (`--decoder-first-pipeline-num-layers`, `--decoder-last-pipeline-num-layers`, from Megatron Core 0.9)';
  return ok.length ? `Use a PP that divides ${layers} (${ok.join(', ')}), or ${uneven}.` : `No PP from 2 to 16 divides ${layers}: ${uneven}, or count the embedding or the loss as a layer (\`--account-for-embedding-in-pipeline-split\`, from 0.11).`;
}
