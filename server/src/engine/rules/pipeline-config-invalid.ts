/**
 * pipeline-config-invalid: pipeline-split arguments that Megatron-LM's argument checks refuse together.
 *
 * megatron/training/arguments.py, validate_args:
 * - an interleaved (virtual-stage) schedule needs PP > 1, or PP > 2 with `--no-overlap-p2p-communication`
 *   (@core_v0.8.0:254-263, @d98e8a6:1000-1009); before 0.8 PP > 2 always (@core_v0.6.0:240-243,
 *   megatron/arguments.py@core_v0.4.0:151-154). From 0.14 a virtual degree of 1 is dropped before the
 *   check; at 0.13 only a layout's; before 0.13 it runs whenever a virtual-stage argument is given.
 * - at most one of `--num-layers-per-virtual-pipeline-stage` and `--num-virtual-stages-per-pipeline-rank`
 *   (@core_v0.11.0:337-338, @core_v0.12.0:429-430), from 0.13 also `--pipeline-model-parallel-layout`
 *   (@core_v0.13.0:496-507, @d98e8a6:928-940), and a layout whose stages
 *   PP divides (@d98e8a6:945-949).
 * - the embedding/loss split switches with MoE and a router auxiliary loss (@core_v0.11.0:796-801 only).
 * - `--num-layers-per-virtual-pipeline-stage` with first/last stage sizes (@core_v0.11.0:351-353,
 *   @d98e8a6:954-956); in 0.9 and 0.10 uneven stages refuse virtual stages (transformer_block.py).
 * - a `--hybrid-layer-pattern` sets the pipeline split itself, so the virtual-stage arguments, a layout
 *   and the embedding/loss split switches are refused beside it, and so is its old name beside it
 *   (@core_v0.17.0:594-683, @d98e8a6:745-838).
 *
 * Megatron Core's model configs (ModelParallelConfig, TransformerConfig), for every Megatron format:
 * a deferred embedding weight gradient without pipeline parallelism or without gradient-accumulation
 * fusion, pipeline communication overlap in warm-up and flush without the overlap itself, and
 * pipeline split arguments that exclude each other.
 */
import { argAbsent, argGiven, argNum, argOff, argOn, argValue, argWords, MEGATRON_FORMATS, MLM_FLAG_FORMATS, type MegatronModel, parallelSize } from '../formats/megatron/model';
import { named, runChecks, type ArgCheck } from '../formats/megatron/checks';
import { layoutChunks } from '../plan/split';
import { untracked } from './certain';
import { defineRule } from './rule';
import { YAML_CFG_PIPELINE_CHECKS } from '../formats/megatron/yaml-cfg-checks';

/** PP as written, or 1 where the file leaves it out and defaults apply. */
const pp = (m: MegatronModel): number | undefined => parallelSize(m, 'pipeline_model_parallel_size');

/** TP as written, or 1 where the file leaves it out and defaults apply. */
const tp = (m: MegatronModel): number | undefined => parallelSize(m, 'tensor_model_parallel_size');

/** A hybrid model's layer pattern (or its old name) is given: it sets the pipeline split its own way. */
const hybrid = (m: MegatronModel): boolean => argGiven(m, 'hybrid_layer_pattern') || argGiven(m, 'hybrid_override_pattern');

/** The stages of a `--pipeline-model-parallel-layout` string, when it parses. */
function layoutStages(m: MegatronModel): number | undefined {
  return layoutChunks(argValue(m, 'pipeline_model_parallel_layout'))?.length;
}

/**
 * The virtual pipeline degree the arguments give, when it is known and above 1 (a degree of 1 is no
 * interleaving); undefined otherwise, and for a hybrid model, whose pattern decides it.
 */
function interleaved(m: MegatronModel): number | undefined {
  if (hybrid(m)) return undefined;
  const stages = pp(m);
  if (stages === undefined || stages < 1) return undefined;
  let vpp: number | undefined;
  const given = ['num_layers_per_virtual_pipeline_stage', 'num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout'].filter((d) => !argAbsent(m, d));
  if (given.length !== 1) return undefined;
  if (given[0] === 'num_virtual_stages_per_pipeline_rank') vpp = argNum(m, 'num_virtual_stages_per_pipeline_rank');
  else if (given[0] === 'pipeline_model_parallel_layout') {
    const n = layoutStages(m);
    vpp = n !== undefined && n % stages === 0 ? n / stages : undefined;
  } else {
    const per = argNum(m, 'num_layers_per_virtual_pipeline_stage');
    const layers = argNum(m, 'num_layers');
    if (per === undefined || per < 1 || layers === undefined) return undefined;
    // The embedding and loss count as layers when they are put into the split.
    let extra = 0;
    for (const d of ['account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split']) {
      if (argOn(m, d)) extra++;
      else if (!argOff(m, d)) return undefined;
    }
    const total = layers + extra;
    if (total % stages !== 0 || (total / stages) % per !== 0) return undefined;
    vpp = total / stages / per;
  }
  return vpp !== undefined && vpp > 1 ? vpp : undefined;
}

/** `--no-overlap-p2p-communication` is given (the overlap is on by default). */
const p2pOverlapOff = (m: MegatronModel): boolean => argValue(m, 'overlap_p2p_comm') === false;
/** The overlap is on: left at its default, or written on. */
const p2pOverlapOn = (m: MegatronModel): boolean => argAbsent(m, 'overlap_p2p_comm') || argOn(m, 'overlap_p2p_comm');

/** The argument that asks for the virtual stages, to report on. */
function vppArg(m: MegatronModel): string {
  return ['num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout', 'num_layers_per_virtual_pipeline_stage'].find((d) => !argAbsent(m, d)) ?? 'num_layers_per_virtual_pipeline_stage';
}

const VPP_ARGS = ['num_layers_per_virtual_pipeline_stage', 'num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout'];
const flagOf = (dest: string): string => `--${dest.replace(/_/g, '-')}`;

/** The hybrid-pattern conflicts: each argument the pattern's `|` segments take the place of. */
const HYBRID_CONFLICTS: { dest: string; on: (m: MegatronModel) => boolean; quote: string }[] = [
  { dest: 'num_layers_per_virtual_pipeline_stage', on: (m) => argGiven(m, 'num_layers_per_virtual_pipeline_stage'), quote: '--num-layers-per-virtual-pipeline-stage should not be used with --hybrid-layer-pattern' },
  { dest: 'num_virtual_stages_per_pipeline_rank', on: (m) => argGiven(m, 'num_virtual_stages_per_pipeline_rank'), quote: '--num-virtual-stages-per-pipeline-rank should not be used with --hybrid-layer-pattern' },
  { dest: 'pipeline_model_parallel_layout', on: (m) => argGiven(m, 'pipeline_model_parallel_layout'), quote: '--pipeline-model-parallel-layout should not be used with --hybrid-layer-pattern' },
  { dest: 'account_for_embedding_in_pipeline_split', on: (m) => argOn(m, 'account_for_embedding_in_pipeline_split'), quote: '--account-for-embedding-in-pipeline-split should not be used with --hybrid-layer-pattern' },
  { dest: 'account_for_loss_in_pipeline_split', on: (m) => argOn(m, 'account_for_loss_in_pipeline_split'), quote: '--account-for-loss-in-pipeline-split should not be used with --hybrid-layer-pattern' },
];

/** A router auxiliary loss is on: a load-balancing type other than `none` (its default `aux_loss` where left out), or a z-loss coefficient. */
const moeAuxLoss = (m: MegatronModel): boolean =>
  argGiven(m, 'moe_z_loss_coeff') || argAbsent(m, 'moe_router_load_balancing_type') || !!argWords(m, 'moe_router_load_balancing_type')?.some((t) => t !== 'none');

const INTERLEAVED_WHY = 'the interleaved schedule runs several virtual stages on each pipeline rank and passes activations between neighbouring ranks';

/**
 * The interleaved schedule's PP check, and when it runs. From 0.14 a virtual degree of 1 is dropped
 * before it (training/arguments.py@core_v0.14.0, @d98e8a6:975-976); at 0.13 only a layout's degree of 1
 * is (@core_v0.13.0:517-518), and before 0.13 the check runs whenever a virtual-stage argument is given,
 * whatever the degree (@core_v0.8.0:254, @core_v0.12.0:432). Where two of them are given, their own
 * check (below) is what stops.
 */
function vppAsked(m: MegatronModel, era: 'before-0.13' | '0.13' | 'from-0.14'): boolean {
  if (era === 'from-0.14') return interleaved(m) !== undefined;
  const given = VPP_ARGS.filter((d) => argGiven(m, d));
  if (given.length !== 1 || hybrid(m)) return false;
  if (era === '0.13' && given[0] === 'pipeline_model_parallel_layout') return interleaved(m) !== undefined;
  return given[0] !== 'pipeline_model_parallel_layout';
}

/** What the virtual-stage argument asks for, in a message: the degree when it is known and above 1. */
function vppAsks(m: MegatronModel): string {
  const n = interleaved(m);
  return n !== undefined ? `asks for ${n} virtual pipeline stages per rank` : 'turns on the interleaved schedule (before Megatron Core 0.14 it does so whatever degree it gives, even a single virtual stage)';
}

const ERAS: { era: 'before-0.13' | '0.13' | 'from-0.14'; since: string; before?: string }[] = [
  { era: 'before-0.13', since: '0.8.0', before: '0.13.0' },
  { era: '0.13', since: '0.13.0', before: '0.14.0' },
  { era: 'from-0.14', since: '0.14.0' },
];

const INTERLEAVED_PP_CHECKS: ArgCheck[] = ERAS.flatMap(({ era, since, before }): ArgCheck[] => [
  {
    when: (m) => (vppAsked(m, era) && pp(m) === 1 && p2pOverlapOn(m) ? vppArg(m) : undefined),
    message: (m) => `\`${flagOf(vppArg(m))}\` ${vppAsks(m)} with PP 1: ${INTERLEAVED_WHY}, and Megatron-LM stops at startup ("pipeline-model-parallel size should be greater than 1"). Use \`--pipeline-model-parallel-size\` 2 or more, or drop \`${flagOf(vppArg(m))}\`.`,
    formats: MLM_FLAG_FORMATS,
    since,
    before,
  },
  {
    when: (m) => {
      const p = pp(m);
      return vppAsked(m, era) && p !== undefined && p <= 2 && p2pOverlapOff(m) ? vppArg(m) : undefined;
    },
    message: (m) => `\`${flagOf(vppArg(m))}\` with PP ${pp(m)} and \`--no-overlap-p2p-communication\`: without the overlap, the interleaved schedule batches its sends and receives, and with PP ${pp(m)} a batch would hold several between the same two ranks, so Megatron-LM stops at startup ("pipeline-model-parallel size should be greater than 2"). Use PP 3 or more, or drop \`--no-overlap-p2p-communication\`${pp(m) === 2 ? '' : ' and use PP 2'}.`,
    formats: MLM_FLAG_FORMATS,
    since,
    before,
  },
]);

const CHECKS: ArgCheck[] = [
  ...INTERLEAVED_PP_CHECKS,
  {
    // megatron/arguments.py@core_v0.4.0:151-154 to training/arguments.py@core_v0.7.0:241-244: the
    // check runs whenever the argument is given, even when it makes one virtual stage.
    when: (m) => {
      const p = pp(m);
      return argGiven(m, 'num_layers_per_virtual_pipeline_stage') && p !== undefined && p <= 2 ? 'num_layers_per_virtual_pipeline_stage' : undefined;
    },
    message: (m) => `\`--num-layers-per-virtual-pipeline-stage\` with PP ${pp(m)}: before Megatron Core 0.8 the argument alone turns on the interleaved schedule (whatever degree it gives, even a single virtual stage), which then needs PP above 2, and Megatron-LM stops at startup ("pipeline-model-parallel size should be greater than 2 with interleaved schedule"). Use PP 3 or more, or drop \`--num-layers-per-virtual-pipeline-stage\`.`,
    formats: MLM_FLAG_FORMATS,
    before: '0.8.0',
  },
  {
    // training/arguments.py@core_v0.11.0:337-338, @core_v0.12.0:429-430 (the layout arrives in 0.13,
    // where the check takes it in, below).
    when: (m) => (argGiven(m, 'num_layers_per_virtual_pipeline_stage') && argGiven(m, 'num_virtual_stages_per_pipeline_rank') ? 'num_virtual_stages_per_pipeline_rank' : undefined),
    message: () => '`--num-layers-per-virtual-pipeline-stage` and `--num-virtual-stages-per-pipeline-rank` both set the virtual pipeline stages, and Megatron-LM stops at startup ("--num-layers-per-virtual-pipeline-stage and --num-virtual-stages-per-pipeline-rank cannot be set at the same time"). Keep one of them.',
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
    before: '0.13.0',
  },
  {
    when: (m) => {
      const given = VPP_ARGS.filter((d) => argGiven(m, d));
      return given.length > 1 ? given[given.length - 1] : undefined;
    },
    message: (m) => {
      const given = VPP_ARGS.filter((d) => argGiven(m, d)).map((d) => `\`${flagOf(d)}\``);
      return `${given.join(' and ')} both set the virtual pipeline stages, and Megatron-LM stops at startup ("No more than one of the following arguments can be set at the same time"). Keep one of them.`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
  },
  {
    when: (m) => {
      const n = layoutStages(m);
      const p = pp(m);
      return !hybrid(m) && n !== undefined && p !== undefined && p > 1 && n % p !== 0 ? 'pipeline_model_parallel_layout' : undefined;
    },
    message: (m) => `The \`--pipeline-model-parallel-layout\` has ${layoutStages(m)} \`|\`-separated stages, which PP ${pp(m)} does not divide: each pipeline rank takes the same number of them (its virtual stages), and Megatron-LM stops at startup ("The length of pipeline_model_parallel_layout must be divisible by pipeline_model_parallel_size"). Write a number of stages that is a multiple of PP.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.13.0',
  },
  {
    when: (m) => {
      if (hybrid(m) || !argGiven(m, 'num_layers_per_virtual_pipeline_stage') || !argAbsent(m, 'num_virtual_stages_per_pipeline_rank') || !argAbsent(m, 'pipeline_model_parallel_layout')) return undefined;
      return ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers'].find((d) => argGiven(m, d)) ? 'num_layers_per_virtual_pipeline_stage' : undefined;
    },
    message: () => '`--num-layers-per-virtual-pipeline-stage` with an uneven split (`--decoder-first-pipeline-num-layers` or `--decoder-last-pipeline-num-layers`): the layers per virtual stage cannot be the same on every rank, and Megatron-LM stops at startup ("please use --num-virtual-stages-per-pipeline-rank to specify virtual pipeline parallel degree when enable uneven pipeline parallelism"). Give the degree with `--num-virtual-stages-per-pipeline-rank` instead.',
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
  },
  {
    // 0.9 and 0.10: the virtual-stage checks ignore the stage sizes and assert that PP divides the layers
    // (training/arguments.py@core_v0.9.0:279-280, @core_v0.10.0:344-346); a split that passes stops
    // when the model is built (transformer_block.py@core_v0.9.0, @core_v0.10.0:56-59).
    when: (m) => (!hybrid(m) && argGiven(m, 'num_layers_per_virtual_pipeline_stage') && ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers'].some((d) => argGiven(m, d)) ? 'num_layers_per_virtual_pipeline_stage' : undefined),
    message: (m) => {
      const layers = argNum(m, 'num_layers');
      const p = pp(m);
      const where = layers !== undefined && p !== undefined && p > 0 && layers % p !== 0
        ? `Megatron-LM stops at startup (its checks of the virtual stages ignore the stage sizes and assert that PP ${p} divides the ${layers} layers)`
        : 'Megatron Core stops when it builds the model ("Uneven number of layer not compatible with interleaved pipeline schedule")';
      return `\`--num-layers-per-virtual-pipeline-stage\` with an uneven split (\`--decoder-first-pipeline-num-layers\` or \`--decoder-last-pipeline-num-layers\`): before Megatron Core 0.11 uneven stages take no virtual stages, and ${where}. Drop the virtual stages or the stage sizes, or use Megatron Core 0.11 or newer with \`--num-virtual-stages-per-pipeline-rank\`.`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
    before: '0.11.0',
  },
  {
    // training/arguments.py@core_v0.11.0:796-801 (gone in core_v0.12.0): with MoE, a load-balancing
    // type other than `none` (the default is `aux_loss`) or a z-loss coefficient refuses both switches.
    when: (m) => (argGiven(m, 'num_moe_experts') && moeAuxLoss(m) ? ['account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split'].find((d) => argOn(m, d)) : undefined),
    message: (m) => {
      const flag = flagOf(['account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split'].find((d) => argOn(m, d))!);
      return `\`${flag}\` with MoE and ${argGiven(m, 'moe_z_loss_coeff') ? 'a z-loss (`--moe-z-loss-coeff`)' : argAbsent(m, 'moe_router_load_balancing_type') ? 'a load-balancing loss (`--moe-router-load-balancing-type` is `aux_loss` unless given)' : 'a load-balancing type other than `none`'}: Megatron-LM 0.11 does not take the router's auxiliary losses into a split that counts the embedding or loss as a layer, and stops at startup ("Cannot support load balancing loss and z loss with ${flag}"). Drop \`${flag}\` (and balance the stages with \`--decoder-first-pipeline-num-layers\`/\`--decoder-last-pipeline-num-layers\`), or use Megatron Core 0.12 or newer.`;
    },
    formats: MLM_FLAG_FORMATS,
    since: '0.11.0',
    before: '0.12.0',
  },
  ...[{ since: undefined, before: '0.9.0', ppAbove1: true }, { since: '0.9.0', before: '0.14.0', ppAbove1: false }].map(
    // megatron/arguments.py@core_v0.4.0:96-100 to training/arguments.py@core_v0.8.0:192-197 (with PP
    // above 1); from core_v0.9.0 to core_v0.13.0 the split rank becomes the encoder's pipeline size
    // and what is left for the decoder must be above 0, whatever PP (@core_v0.9.0:209-212).
    ({ since, before, ppAbove1 }): ArgCheck => ({
      when: (m) => {
        const rank = argNum(m, 'pipeline_model_parallel_split_rank');
        const p = pp(m);
        return rank !== undefined && p !== undefined && (!ppAbove1 || p > 1) && rank >= p ? 'pipeline_model_parallel_split_rank' : undefined;
      },
      message: (m) => `\`--pipeline-model-parallel-split-rank ${argNum(m, 'pipeline_model_parallel_split_rank')}\` with PP ${pp(m)}: the encoder takes the pipeline ranks below the split rank and the decoder the rest, so the split rank must be below PP, and Megatron-LM stops at startup (${ppAbove1 ? '"split rank needs to be less than pipeline model parallel size"' : 'an assertion that the decoder keeps a pipeline rank'}). Use a split rank below ${pp(m)}.`,
      formats: MLM_FLAG_FORMATS,
      since,
      before,
    }),
  ),
  {
    // training/arguments.py@core_v0.9.0:167-168, @core_v0.10.0:202-203 (gone in core_v0.11.0): an
    // encoder TP needs an encoder pipeline size (the default 0 is none).
    when: (m) => ((argNum(m, 'encoder_tensor_model_parallel_size') ?? 0) > 0 && (argAbsent(m, 'encoder_pipeline_model_parallel_size') || argNum(m, 'encoder_pipeline_model_parallel_size') === 0) ? 'encoder_tensor_model_parallel_size' : undefined),
    message: () => '`--encoder-tensor-model-parallel-size` without `--encoder-pipeline-model-parallel-size`: the encoder TP sizes the encoder\'s own pipeline ranks, which the default (0) does not give, and Megatron-LM stops at startup ("encoder_pipeline_model_parallel_size must be defined."). Give `--encoder-pipeline-model-parallel-size` 1 or more, or drop the encoder TP.',
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
    before: '0.11.0',
  },
  {
    // training/arguments.py@core_v0.9.0:169-170 to @core_v0.13.0 (gone with the encoder sizes in core_v0.14.0).
    when: (m) => {
      const etp = argNum(m, 'encoder_tensor_model_parallel_size');
      const t = tp(m);
      return etp !== undefined && etp > 0 && t !== undefined && etp > t ? 'encoder_tensor_model_parallel_size' : undefined;
    },
    message: (m) => `\`--encoder-tensor-model-parallel-size ${argNum(m, 'encoder_tensor_model_parallel_size')}\` above the decoder's TP ${tp(m)}: Megatron-LM stops at startup ("We do not support encoders with more TP than the decoder."). Use an encoder TP of at most ${tp(m)}.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
    before: '0.14.0',
  },
  {
    when: (m) => {
      const etp = argNum(m, 'encoder_tensor_model_parallel_size');
      const heads = argNum(m, 'num_attention_heads');
      return etp !== undefined && etp > 0 && heads !== undefined && heads % etp !== 0 ? 'encoder_tensor_model_parallel_size' : undefined;
    },
    message: (m) => `\`--encoder-tensor-model-parallel-size ${argNum(m, 'encoder_tensor_model_parallel_size')}\` does not divide the ${argNum(m, 'num_attention_heads')} attention heads: each encoder TP rank takes whole heads, and Megatron-LM stops at startup (a bare assertion on \`num_attention_heads % encoder_tensor_model_parallel_size\`). Use an encoder TP that divides the heads.`,
    formats: MLM_FLAG_FORMATS,
    since: '0.9.0',
    before: '0.14.0',
  },
  {
    when: (m) => (argGiven(m, 'hybrid_override_pattern') && argGiven(m, 'hybrid_layer_pattern') ? 'hybrid_override_pattern' : undefined),
    message: () => '`--hybrid-override-pattern` beside `--hybrid-layer-pattern`: the first is the old name of the second, and Megatron-LM stops at startup ("--hybrid-override-pattern and --hybrid-layer-pattern cannot both be specified"). Keep `--hybrid-layer-pattern`.',
    formats: MLM_FLAG_FORMATS,
    since: '0.17.0',
  },
  ...HYBRID_CONFLICTS.map(
    (c): ArgCheck => ({
      when: (m) => (hybrid(m) && c.on(m) ? c.dest : undefined),
      message: () => `\`${flagOf(c.dest)}\` beside a \`--hybrid-layer-pattern\`: the pattern sets the pipeline split itself (its \`|\` separators mark the stages, and their number over PP gives the virtual stages), and Megatron-LM stops at startup ("${c.quote}"). Drop \`${flagOf(c.dest)}\` and write the split into the pattern.`,
      formats: MLM_FLAG_FORMATS,
      since: '0.17.0',
    }),
  ),
];


/** PP is 1: written so, or left out where Megatron's default (1) applies. */
const noPipeline = (m: MegatronModel) => argAbsent(m, 'pipeline_model_parallel_size') || argNum(m, 'pipeline_model_parallel_size') === 1;
/**
 * The first of the arguments that the file writes and that holds: either one is enough, so one left
 * out (which a Bridge override leaves to its recipe) is not read.
 */
const firstWritten = (m: MegatronModel, dests: string[], holds: (m: MegatronModel, d: string) => boolean) =>
  dests.find((d) => untracked(m.args).get(d) !== undefined && holds(m, d));
/** First or last stage sizes (`--decoder-first/last-pipeline-num-layers`; `num_layers_in_first/last_pipeline_stage` in a config). */
const stageSize = (m: MegatronModel) => firstWritten(m, ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers'], argGiven);
const accountFor = (m: MegatronModel) => firstWritten(m, ['account_for_embedding_in_pipeline_split', 'account_for_loss_in_pipeline_split'], argOn);
/**
 * No virtual pipeline stages on Megatron-LM's command line: none of the arguments that set them is
 * written (validate_args then turns the p2p overlap off, training/arguments.py@core_v0.10.0:353-357,
 * @d98e8a6:1010-1012).
 */
const noVirtualStages = (m: MegatronModel) =>
  ['num_layers_per_virtual_pipeline_stage', 'num_virtual_stages_per_pipeline_rank', 'pipeline_model_parallel_layout', 'hybrid_layer_pattern'].every((d) => argAbsent(m, d));

/** The virtual stages a layout gives (its model chunks over PP) and the ones written beside it, when they differ. */
function layoutVpp(m: MegatronModel, chunks: number | undefined): { written: number; detected: number } | undefined {
  const written = argNum(m, 'virtual_pipeline_model_parallel_size');
  const pp = argNum(m, 'pipeline_model_parallel_size');
  if (written === undefined || pp === undefined || pp < 1 || chunks === undefined || chunks % pp !== 0) return undefined;
  const detected = chunks / pp;
  return written !== detected ? { written, detected } : undefined;
}

/**
 * ModelParallelConfig.__post_init__ (model_parallel_config.py) and TransformerConfig.__post_init__
 * (transformer_config.py); the first and last tag of each are given beside it.
 */
const MODEL_CONFIG_CHECKS: ArgCheck[] = [
  {
    // model_parallel_config.py@core_v0.6.0:276-279 to @d98e8a6:545-548.
    when: (m) => (argOn(m, 'defer_embedding_wgrad_compute') && noPipeline(m) ? 'defer_embedding_wgrad_compute' : undefined),
    since: '0.6.0',
    message: (m) => `${named(m, '--defer-embedding-wgrad-compute')} without pipeline parallelism: the output layer's weight-gradient GEMMs are moved into the pipeline flush, which PP 1 does not have, and Megatron Core stops when it builds the model config ("Cannot defer embedding wgrad compute when pipeline model parallel is not used"). Drop the flag, or use PP > 1.`,
  },
  {
    // model_parallel_config.py@core_v0.6.0:281-284 to @d98e8a6:550-553.
    when: (m) => (argOn(m, 'defer_embedding_wgrad_compute') && argValue(m, 'gradient_accumulation_fusion') === false ? 'gradient_accumulation_fusion' : undefined),
    since: '0.6.0',
    message: (m) => `${named(m, '--defer-embedding-wgrad-compute')} with gradient-accumulation fusion turned off: the deferred GEMMs accumulate straight into the gradient buffer through that fusion, and Megatron Core stops when it builds the model config ("Cannot defer embedding wgrad compute when gradient accumulation fusion is not used"). Keep gradient-accumulation fusion on (its default), or drop ${named(m, '--defer-embedding-wgrad-compute')}.`,
  },
  {
    // model_parallel_config.py@core_v0.10.0:382-387 to @d98e8a6:570-575: Megatron-LM passes
    // batch_p2p_comm = not overlap_p2p_comm (training/arguments.py, argument_utils.py@d98e8a6:307).
    when: (m) => (argOn(m, 'overlap_p2p_comm_warmup_flush') && (argValue(m, 'overlap_p2p_comm') === false || noVirtualStages(m)) ? 'overlap_p2p_comm_warmup_flush' : undefined),
    formats: MLM_FLAG_FORMATS,
    since: '0.10.0',
    message: (m) => `\`--overlap-p2p-communication-warmup-flush\` ${argValue(m, 'overlap_p2p_comm') === false ? 'with `--no-overlap-p2p-communication`' : 'without virtual pipeline stages (Megatron-LM turns the p2p overlap off without the interleaved schedule)'}: it extends the pipeline send/receive overlap to warm-up and flush, and Megatron Core stops when it builds the model config ("Pipeline parallel communication overlapping in warmup and flush is only compatible with overlap_p2p_comm but not batch_p2p_comm."). Use virtual pipeline stages with the p2p overlap on (its default), or drop the flag.`,
  },
  {
    // transformer_config.py@core_v0.11.0:582-592 to @d98e8a6:2229-2240.
    when: (m) => (stageSize(m) && accountFor(m) ? stageSize(m) : undefined),
    since: '0.11.0',
    message: (m) => `${named(m, `--${stageSize(m)!.replace(/_/g, '-')}`)} with ${named(m, `--${accountFor(m)!.replace(/_/g, '-')}`)}: the first and last stage sizes already say where the layers go, and counting the embedding or loss as a layer is another way to say it, so Megatron Core stops when it builds the transformer config ("num_layers_in_first_pipeline_stage and num_layers_in_last_pipeline_stage cannot be set at the same time with account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split"). Keep one of the two.`,
  },
  {
    // transformer_config.py@core_v0.13.0:873-892 to @d98e8a6:2242-2260.
    when: (m) => (argGiven(m, 'pipeline_model_parallel_layout') && (stageSize(m) || accountFor(m)) ? 'pipeline_model_parallel_layout' : undefined),
    since: '0.13.0',
    message: (m) => `${named(m, '--pipeline-model-parallel-layout')} with ${named(m, `--${(stageSize(m) ?? accountFor(m))!.replace(/_/g, '-')}`)}: the layout places every layer itself, and Megatron Core stops when it builds the transformer config ("pipeline_model_parallel_layout cannot be set with other pipeline layout arguments."). Drop the other pipeline split arguments, or the layout.`,
  },
  {
    // transformer_config.py@core_v0.13.0:908-916 to @d98e8a6:2278-2285. Megatron-LM's command line
    // sets the virtual stages from the layout itself; a config writes them beside it.
    when: (m, p) => (layoutVpp(m, p?.pipelineSplit?.layout?.length) ? 'virtual_pipeline_model_parallel_size' : undefined),
    formats: ['megatron-bridge', 'nemo'],
    since: '0.13.0',
    message: (m, p) => {
      const v = layoutVpp(m, p?.pipelineSplit?.layout?.length)!;
      return `${named(m, '--virtual-pipeline-model-parallel-size')} is ${v.written}, and the ${named(m, '--pipeline-model-parallel-layout')} gives ${v.detected} virtual stage${v.detected === 1 ? '' : 's'} per pipeline rank (its model chunks over PP): Megatron Core stops when it builds the transformer config ("virtual_pipeline_model_parallel_size conflicts with pipeline_model_parallel_layout"). Set it to ${v.detected}, or leave it out (the layout sets it).`;
    },
  },
];

/**
 * A first or last stage size that its virtual stages cannot split: with virtual pipeline stages each
 * of those sizes must be a multiple of their number (transformer_config.py@core_v0.11.0:603-634,
 * @d98e8a6:2306-2335). The virtual stages come from `--num-virtual-stages-per-pipeline-rank` (the
 * only way Megatron-LM takes them beside stage sizes) or a config's virtual pipeline size, as written.
 */
function stageVpp(m: MegatronModel): { dest: string; n: number; vpp: number } | undefined {
  const written = ['num_virtual_stages_per_pipeline_rank', 'virtual_pipeline_model_parallel_size'].find((d) => untracked(m.args).get(d) !== undefined);
  const vpp = written ? argNum(m, written) : undefined;
  // A layout written beside them is refused on its own (above); one a recipe adds would be too.
  if (vpp === undefined || vpp <= 1 || untracked(m.args).get('pipeline_model_parallel_layout') !== undefined) return undefined;
  for (const dest of ['decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers']) {
    if (untracked(m.args).get(dest) === undefined) continue;
    const n = argNum(m, dest);
    if (n !== undefined && n > 0 && n % vpp !== 0) return { dest, n, vpp };
  }
  return undefined;
}

const VPP_CHECKS: ArgCheck[] = [
  {
    when: (m) => stageVpp(m)?.dest,
    since: '0.11.0',
    message: (m) => {
      const s = stageVpp(m)!;
      const which = s.dest === 'decoder_first_pipeline_num_layers' ? 'first' : 'last';
      return `${named(m, `--${s.dest.replace(/_/g, '-')}`, String(s.n))} with ${s.vpp} virtual pipeline stages per rank: the ${which} stage's layers are split over its virtual stages, and Megatron Core stops when it builds the transformer config (the number of layers at the ${which} stage "must be divisible by virtual pipeline" parallel degree ${s.vpp}). Give the ${which} stage a multiple of ${s.vpp} layers.`;
    },
  },
];

export default defineRule<MegatronModel>({
  id: 'pipeline-config-invalid',
  severity: 'error',
  formats: MEGATRON_FORMATS,
  docs: {
    summary: 'Pipeline-split arguments that Megatron rejects together: virtual stages with too small a PP, two ways of giving the virtual stages, a layout PP does not divide, layers per virtual stage with an uneven split, the embedding/loss split switches with MoE router losses (0.11), an encoder TP that the decoder TP, the heads or the encoder pipeline cannot take (0.9 to 0.13), or split arguments beside a hybrid layer pattern (Megatron-LM\'s argument checks); a deferred embedding weight gradient without pipeline parallelism or without gradient-accumulation fusion, pipeline communication overlap in warm-up and flush without the overlap, or split arguments that exclude each other or that the virtual stages cannot split (Megatron Core\'s model configs).',
    why: 'Megatron-LM\'s argument checks stop the job at startup when the interleaved schedule (virtual pipeline stages) runs with PP 1, or with PP 2 or less under `--no-overlap-p2p-communication` (before Megatron Core 0.8: PP 2 or less at all; before 0.14 a virtual-stage argument that gives a single virtual stage counts too, and from 0.14 it does not); when `--num-layers-per-virtual-pipeline-stage` and `--num-virtual-stages-per-pipeline-rank` are both given (from 0.11), or more than one of them and `--pipeline-model-parallel-layout`, or the layout\'s stages are not a multiple of PP (from 0.13); when `--account-for-embedding-in-pipeline-split` or `--account-for-loss-in-pipeline-split` comes with MoE and a router load-balancing loss (the default) or z-loss (0.11 only); when `--num-layers-per-virtual-pipeline-stage` meets first/last stage sizes (from 0.11; in 0.9 and 0.10 uneven stages take no virtual stages at all, refused at startup or when the model is built); before 0.14, when `--pipeline-model-parallel-split-rank` is not below PP (before 0.9 only with PP above 1); from 0.9 to 0.13, when `--encoder-tensor-model-parallel-size` is above TP or does not divide the attention heads, and in 0.9 and 0.10 when it comes without `--encoder-pipeline-model-parallel-size`; and, from 0.17, when a `--hybrid-layer-pattern` (which sets the split with `|`) comes with the virtual-stage arguments, a layout, the embedding/loss split switches or its old name `--hybrid-override-pattern`. A `--yaml-cfg` file is not checked that way. Megatron Core checks these when it builds the model config, after the job has started: `--defer-embedding-wgrad-compute` moves the output layer\'s weight-gradient GEMMs into the pipeline flush, so it needs PP > 1 and gradient-accumulation fusion (from 0.6); `--overlap-p2p-communication-warmup-flush` needs the p2p overlap, which Megatron-LM turns off without virtual pipeline stages (from 0.10); first and last stage sizes exclude counting the embedding or loss as a layer, and with virtual pipeline stages each must be a multiple of their number (from 0.11); a `--pipeline-model-parallel-layout` excludes both (from 0.13), and a virtual pipeline size written beside it must be the one the layout gives (Megatron Bridge and NeMo configs, which write the size themselves). Megatron Bridge builds the same configs; a Bridge override is judged only on what it writes itself, since the recipe may set the rest. The `--yaml-cfg` reader (from 0.6) refuses virtual pipeline stages with PP 2 or less, whatever the p2p overlap, and before 0.14 a `model_parallel.pipeline_model_parallel_split_rank` that is not below PP.',
    bad: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --defer-embedding-wgrad-compute: true\n',
    good: '# shardwise: format=megatron-yaml world_size=8\nMODEL_ARGS:\n  --num-layers: 32\n  --pipeline-model-parallel-size: 2\n  --defer-embedding-wgrad-compute: true\n',
    shell: {
      bad: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 7 --account-for-embedding-in-pipeline-split \\\n    --micro-batch-size 1 --global-batch-size 64\n',
      good: '#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\ntorchrun --nproc_per_node 8 pretrain_gpt.py \\\n    --num-layers 31 --hidden-size 4096 --num-attention-heads 32 \\\n    --seq-length 4096 --max-position-embeddings 4096 --bf16 \\\n    --pipeline-model-parallel-size 4 --account-for-embedding-in-pipeline-split \\\n    --micro-batch-size 1 --global-batch-size 64\n',
    },
    upstream: [
      { label: 'Megatron-LM core_v0.19.0, `validate_args`: virtual-stage arguments, layout, and the interleaved schedule\'s PP', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/training/arguments.py#L721-L976' },
      { label: 'Megatron-LM core_v0.19.0, `ModelParallelConfig.__post_init__`: deferred embedding weight gradients need PP > 1 and gradient-accumulation fusion; warm-up/flush overlap needs the p2p overlap', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/model_parallel_config.py#L545-L575' },
      { label: 'Megatron-LM core_v0.19.0, `TransformerConfig.__post_init__`: first/last stage sizes, the account-for flags and the pipeline layout exclude each other', url: 'https://github.com/NVIDIA/Megatron-LM/blob/core_v0.19.0/megatron/core/transformer/transformer_config.py#L1922-L1979' },
    ],
  },
  check(ctx) {
    runChecks(ctx, CHECKS);
    runChecks(ctx, MODEL_CONFIG_CHECKS);
    runChecks(ctx, VPP_CHECKS);
    // The `--yaml-cfg` reader's own checks, from 0.6.0 (the split-rank one before 0.14.0).
    runChecks(ctx, YAML_CFG_PIPELINE_CHECKS);
  },
});
