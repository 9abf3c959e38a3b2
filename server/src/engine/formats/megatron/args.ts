/**
 * Megatron-LM arguments, whatever file they are written in (launch-script flags, the `MODEL_ARGS` map
 * of a functional-test config, the `--yaml-cfg` file), and the Plan they describe with Megatron's own
 * arithmetic: DP = world / (TP·PP·CP), expert DP = world / (ETP·EP·PP), ETP defaults to TP, sequence
 * parallelism is turned off at TP 1, and the number of micro-batches is GBS / (MBS·DP).
 */
import { isVersion, versionAtLeast } from '../../version';
import type { EngineSettings } from '../../settings';
import type { CLASSIFY, Classifier } from '../../certainty';
import { planHardware, planModel, type HardwareHint } from '../../plan/context';
import { deriveMegatronGrid } from '../../plan/layout';
import { layoutChunks } from '../../plan/split';
import type { ModelShape, Precision, Sharding } from '../../plan/memory';
import { assumed, basisOf, byDefault, derived, describeProvenance, written, type Field, type Knob, type Plan, type Provenance } from '../../plan/plan';
import type { Path, Span } from '../../types';
import type { DefaultFormat } from '../../schema/types';
import { formatDefaultRun, formatDefaultVaries, MEGATRON_SCHEMA } from './schema';

/** One argument as written: its value and where (for provenance and fixes). */
export interface ArgValue {
  value: unknown;
  path: Path;
  /** Written, but with a value the file cannot know (why). */
  unknown?: string;
  /** Written, with a value the context may override (a fallback of a variable the script does not set): why. */
  assumed?: string;
  /**
   * Derived from another setting at `path`, which holds it in another form (NeMo's optimizer name
   * decides the distributed optimizer): findings point there, but no switch is written there. The
   * text is how the file turns it on (`model.optim.name: distributed_fused_adam`).
   */
  derived?: string;
}

/** An environment variable the file sets for the training processes. */
export interface EnvValue {
  value: string | undefined;
  path: Path;
  /** Where it is written when that is not a document path (a shell assignment's value, its name). */
  span?: Span;
  nameSpan?: Span;
  /** Why the value cannot be known, when it cannot. */
  unknown?: string;
  /** Why the value is only assumed (a fallback, a branch the script does not decide), when it is. */
  assumed?: string;
  /** False for a plain shell variable that is not exported (child processes do not see it). */
  exported: boolean;
}

/** Megatron arguments by their argparse `dest` (snake_case), as a format read them. */
export interface MegatronArgs {
  /** How reads through a rule's tracking view are known (see certainty.ts). */
  [CLASSIFY]?: Classifier;
  get(dest: string): ArgValue | undefined;
  /** Where a new argument would be written (for fixes), given its flag spelling. */
  pathFor(dest: string): Path | undefined;
  /** World size and node count, when the file says (launch scripts) or a setting does. */
  world?: Field<number>;
  nodes?: Field<number>;
  runtime: string;
  /**
   * The arguments are config-class fields (Megatron Bridge, NeMo): TransformerConfig takes
   * `num_query_groups` whenever it is set, where Megatron-LM's command line passes it on only with
   * `--group-query-attention` (core_transformer_config_from_args).
   */
  configFields?: boolean;
  /**
   * A `--yaml-cfg` file: Megatron-LM reads it with yaml_arguments.py (its own checks, a
   * TransformerConfig built from `language_model`), not with argparse and `validate_args`.
   */
  yamlCfg?: boolean;
  /** Environment variables the file sets for the training processes. */
  env?: Map<string, EnvValue>;
  /** Expert TP when unset: TP (Megatron-LM, Core, NeMo) or 1 when EP > 1 (Megatron Bridge). */
  etpDefault?: 'tp' | 'one-with-ep';
  /** Why the runtime builds its expert groups without a written expert TP (NeMo's YAML models): then it is TP. */
  etpIgnored?: string;
  /** Precision set outside the arguments (a Bridge preset, NeMo's trainer.precision). */
  precision?: Field<Precision>;
  /**
   * Set when an unwritten argument does not take Megatron's default but comes from elsewhere (a
   * Bridge recipe): such fields are marked unknown, and rules that depend on them stay silent.
   */
  defaultsUnknown?: string;
  /**
   * Why the flags the reader takes are not known (a Megatron-LM the script does not show, a fork):
   * a switch the file does not write is then not offered, since that release may not have it.
   */
  flagsUnknown?: string;
  /**
   * The config format whose dataclasses give an argument the file leaves out its default, where that
   * differs from Megatron-LM's command line (`x-default-in`): a `--yaml-cfg` file, a NeMo model config,
   * a Megatron Bridge override. Read through `formatDefault`, never directly.
   */
  defaultsIn?: DefaultFormat;
  /** The Megatron Core release those defaults are read at: the one named (`--target`); none named, a default that differs between releases is not known. */
  defaultsRelease?: string;
  /**
   * Flags of a launch that no Megatron-LM release defines, nor any parser read here, and that are
   * no slip of one (script.ts, `notUpstreamFlags`): a fork or an extended parser reads the launch, so
   * upstream's own checks are an assumption (runtime.ts, `upstreamAssumed`).
   */
  notUpstream?: string[];
  /** Where the copy of Megatron-LM that the entry program patches when it starts is (settings.megatronUnseen.patched): upstream's code does not run it. */
  patched?: string;
  /** Where upstream is assumed (`notUpstream`, `patched`): every flag of the launch no release defines, also those a parser of the repository defines. */
  ownFlags?: string[];
  /** The same for single arguments whose default the runtime sets its own way (dest → why). */
  unknownDefaults?: Record<string, string>;
  /** Switches this runtime does not read in this file (dest → why): no knob to set (NeMo's overlaps beside a non-distributed optimizer). */
  unreadSwitches?: Record<string, string>;
  /**
   * Why more arguments may be passed than the file shows (a word whose text is not known among a
   * script's flags, a sourced file that was not read): an argument not seen is then not known to be
   * absent, so Megatron's default is not known to apply.
   */
  open?: string;
  /** Things about this file the layout view should say (e.g. why the world size is unknown). */
  notes?: string[];
  /** Why the run is not training (an inference or export entry point), when it evidently is not. */
  notTraining?: string;
  /** A launch script's entry script (its file name; empty when the script does not say which it runs). */
  entry?: string;
  /** The hardware the file names (a CI test directory such as `..._dgx_a100_1N8G`), when no setting does. */
  hardwareHint?: HardwareHint;
  /** The Slurm allocation the script asks for (`4 nodes × 8 GPUs (SBATCH)`) and the GPUs per node it gives, when known. */
  allocation?: { text: string; gpusPerNode?: Field<number> };
}

/** `--tensor-model-parallel-size` → `tensor_model_parallel_size`; `--no-foo` / `--disable-foo` → `foo` = false. */
export function flagToDest(flag: string): { dest: string; negated: boolean } {
  const bare = flag.replace(/^--?/, '').replace(/-/g, '_');
  const neg = /^(no|disable)_(.+)$/.exec(bare);
  if (neg && !NOT_NEGATIONS.has(bare)) return { dest: neg[2], negated: true };
  return { dest: LEGACY_DESTS[bare] ?? bare, negated: false };
}

/** Flags that start with no-/disable- but are not negations of another flag. */
const NOT_NEGATIONS = new Set(['no_load_optim', 'no_load_rng', 'no_save_optim', 'no_save_rng', 'disable_bias_linear']);
/** Flags whose dest differs from their spelling. */
const LEGACY_DESTS: Record<string, string> = {
  num_experts: 'num_moe_experts',
  fp8_format: 'fp8',
  disable_bias_linear: 'add_bias_linear',
  recompute_activations: 'recompute_activations',
};

function int(a: ArgValue | undefined): number | undefined {
  const v = typeof a?.value === 'string' && /^\d+$/.test(a.value) ? Number(a.value) : a?.value;
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/**
 * A precision only Blackwell GPUs run (Transformer Engine's NVFP4 and MXFP8 need compute capability
 * 10.0 or later): the file then runs on a Blackwell GPU, which one it does not say. The profile is an
 * assumption that names the option; a finding that holds only before Blackwell is then not made.
 */
function blackwellOnly(args: MegatronArgs): { id: string; note: string; assumed: true } | undefined {
  const known = (dest: string): ArgValue | undefined => {
    const a = args.get(dest);
    return a && !a.unknown && !a.assumed ? a : undefined;
  };
  const recipe = known('fp8_recipe')?.value;
  const mp = known('mixed_precision')?.value;
  const why = flag(known('fp4'))
    ? 'FP4 (`fp4`)'
    : recipe === 'mxfp8' && flag(known('fp8'))
      ? 'the MXFP8 recipe (`fp8_recipe: mxfp8`)'
      : typeof mp === 'string' && /mxfp8|nvfp4/.test(mp)
        ? `the \`${mp}\` precision`
        : undefined;
  return why ? { id: 'b200', note: `${why} runs only on Blackwell GPUs (Transformer Engine needs compute capability 10.0), and the file does not say which one`, assumed: true } : undefined;
}

/** A switch as written: a bare flag or a truthy value is on. */
export function flag(a: ArgValue | undefined): boolean | undefined {
  if (!a) return undefined;
  if (typeof a.value === 'boolean') return a.value;
  if (a.value === null || a.value === undefined || a.value === '') return true;
  if (typeof a.value === 'string') return !/^(false|0|no|off)$/i.test(a.value);
  return !!a.value;
}

/**
 * Why a Megatron-LM or Megatron Bridge run only evaluates: `--skip-train` (Bridge `train.skip_train`,
 * `validation.skip_train` from Bridge 0.4) leaves the training loop out — the model is built, a
 * checkpoint loaded, and validation and test run with the model in eval mode — so no training step is
 * taken. From Megatron Core 0.17.0 `--perform-rl-step` still enters the loop then (rollouts only), which
 * is not taken as "not training". NeMo's `model.skip_train` is not this: it runs one training step.
 */
export function skipsTraining(args: MegatronArgs): string | undefined {
  const skip = args.get('skip_train');
  if (!skip || skip.unknown || flag(skip) !== true) return undefined;
  const rl = args.get('perform_rl_step');
  if (rl && (rl.unknown || flag(rl) !== false)) return undefined;
  const last = String(skip.path.at(-1) ?? 'skip_train');
  const written = last.startsWith('--') ? last : skip.path.join('.');
  return `\`${written}\` skips the training loop: the run only evaluates, with the model in eval mode`;
}

/**
 * The language model these arguments describe, frozen by a flag: `--freeze-all-layers` (Megatron-LM
 * runs forward only, under `torch.no_grad`: training.py@d98e8a6:2353) or a multimodal script's
 * `--freeze-LM` (pretrain_vlm.py, examples/multimodal; forks spell it `--freeze-llm`): its weights
 * get no gradients or optimizer state, and what does train (a vision encoder, a projection) is not
 * described here.
 */
function frozenOf(args: MegatronArgs): Plan['frozen'] {
  const all = args.get('freeze_all_layers');
  const lm = FREEZE_LM.map((d) => args.get(d)).find((a) => a && (a.unknown || flag(a) !== false));
  const a = all && (all.unknown || flag(all) !== false) ? all : lm;
  if (!a) return undefined;
  const name = `\`${String(a.path.at(-1))}\``;
  if (a.unknown) return { value: { note: '' }, from: { kind: 'unknown', note: a.unknown } };
  const note = a === all
    ? `${name}: every layer is frozen and the run goes forward only, so no gradients, optimizer state or activations for a backward pass are counted`
    : `${name}: the language model's weights are frozen (no gradients or optimizer state counted); the parts that train (a vision encoder, the projection) are not described by these arguments and not counted`;
  return asWritten({ note, ...(a === all ? { forwardOnly: true } : {}) }, a);
}
const FREEZE_LM = ['freeze_LM', 'freeze_lm', 'freeze_llm', 'freeze_language_model'];

/** A value as written: assumed when the context may override it. */
function asWritten<T>(value: T, a: ArgValue): Field<T> {
  return a.assumed ? assumed(value, a.assumed, a.path) : written(value, a.path);
}

/**
 * Whether the experts' tokens go through the flex dispatcher (DeepEP or HybridEP: one network copy
 * per remote NVLink domain) or the all-gather / all-to-all one (a copy per routed expert). NCCL EP is
 * priced as the all-to-all.
 */
function dispatcherOf(args: MegatronArgs, fallback: <T>(value: T, note: string) => Field<T>): Field<boolean> {
  const type = args.get('moe_token_dispatcher_type');
  if (type?.unknown) return { value: false, from: { kind: 'unknown', note: type.unknown } };
  if (type?.value !== 'flex') return type ? asWritten(false, type) : fallback(false, 'Megatron dispatches with the all-gather dispatcher unless asked for another');
  const backend = args.get('moe_flex_dispatcher_backend');
  if (backend?.unknown) return { value: false, from: { kind: 'unknown', note: backend.unknown } };
  if (backend) return asWritten(backend.value === 'deepep' || backend.value === 'hybridep', backend);
  return asWritten(true, type);
}

const FORMAT_READER: Record<DefaultFormat, string> = {
  'yaml-cfg': "Megatron-LM's `--yaml-cfg` reader",
  nemo: "NeMo's model config",
  bridge: 'Megatron Bridge',
};

/**
 * The default an argument the file leaves out takes in the file's own format, where that format's
 * reader gives it another than Megatron-LM's command line (`x-default-in`: a `--yaml-cfg` file's
 * TransformerConfig leaves `masked_softmax_fusion` off, which the command line turns on): `{ value,
 * note }`, `{ unknown }` where no default can be known there (a Bridge model provider's own, a
 * reader that stops on the missing key), or undefined where the command line's default holds. Every
 * reading of a default in a Megatron format goes through here (model.ts's helpers, the Plan, the
 * rule context's certainty).
 */
export function formatDefault(args: MegatronArgs, dest: string): { value: unknown; note: string } | { unknown: string } | undefined {
  const format = args.defaultsIn;
  if (!format) return undefined;
  const schema = MEGATRON_SCHEMA.properties?.[dest];
  const reader = FORMAT_READER[format];
  // A default that changed between releases is known only at a release that is named.
  if (args.defaultsRelease === undefined && formatDefaultVaries(schema, format)) return { unknown: `\`${dest}\` is not written, and its default in ${reader} differs between Megatron Core releases; no release is named (\`--target megatron-core=<version>\`)` };
  const run = formatDefaultRun(schema, format, args.defaultsRelease);
  if (!run) return undefined;
  if (run.unknown !== undefined) return { unknown: `\`${dest}\` is not written, and ${reader} gives it no default that can be known here: ${run.unknown}` };
  const shown = (v: unknown) => (v === null ? 'None' : JSON.stringify(v));
  if (run.mla === undefined) return 'value' in run ? { value: run.value, note: `${reader}'s default for \`${dest}\` (${shown(run.value)})` } : undefined;
  // MLATransformerConfig gives the field another default: with multi-latent attention on, that one.
  const mla = args.get('multi_latent_attention');
  if (mla?.unknown) return { unknown: `\`${dest}\` is not written, and its default in ${reader} depends on \`multi_latent_attention\`, which is not known: ${mla.unknown}` };
  if (flag(mla) === true) return { value: run.mla, note: `${reader}'s multi-latent-attention default for \`${dest}\` (${shown(run.mla)})` };
  return 'value' in run ? { value: run.value, note: `${reader}'s default for \`${dest}\` (${shown(run.value)})` } : undefined;
}

/** Megatron's default for an argument the file leaves out, when it is known to apply (see `open`, `defaultsUnknown`). */
export function defaultOf<T>(args: MegatronArgs, value: T, note: string): Field<T> {
  const why = args.defaultsUnknown ?? args.open;
  return why ? { value, from: { kind: 'unknown', note: why } } : byDefault(value, note);
}

/**
 * `weightShards`: the arguments are Megatron-LM's own (a launch script, `--yaml-cfg`), whose checks
 * lay the generalized-TP weight shards out as ranks (Megatron Core 0.19.0 on); Megatron Bridge and
 * NeMo pass no such factor to the process groups they build.
 */
export function megatronPlan(args: MegatronArgs, settings: EngineSettings, opts: { weightShards?: boolean } = {}): Plan {
  const fallback = <T,>(value: T, note: string): Field<T> => defaultOf(args, value, note);
  const num = (dest: string, dflt: number, note: string): Field<number> => {
    const a = args.get(dest);
    if (a?.unknown) return { value: dflt, from: { kind: 'unknown', note: a.unknown } };
    const v = int(a);
    return v !== undefined && v >= 1 ? asWritten(v, a!) : fallback(dflt, note);
  };
  const bool = (dest: string, dflt: boolean, note: string): Field<boolean> => {
    const a = args.get(dest);
    if (a?.unknown) return { value: dflt, from: { kind: 'unknown', note: a.unknown } };
    const v = flag(a);
    if (v !== undefined) return asWritten(v, a!);
    const elsewhere = args.unknownDefaults?.[dest];
    if (elsewhere) return { value: dflt, from: { kind: 'unknown', note: elsewhere } };
    // The file's format may give the switch another default than the command line's.
    const own = formatDefault(args, dest);
    if (own && 'unknown' in own) return { value: dflt, from: { kind: 'unknown', note: own.unknown } };
    return own ? fallback(own.value === true, own.note) : fallback(dflt, note);
  };
  const tp = num('tensor_model_parallel_size', 1, 'Megatron uses TP 1');
  const pp = num('pipeline_model_parallel_size', 1, 'Megatron uses PP 1');
  const cp = num('context_parallel_size', 1, 'Megatron uses CP 1');
  const ep = num('expert_model_parallel_size', 1, 'Megatron uses EP 1');
  const encoder = encoderRanks(args, tp, cp);
  const shards = (dest: string): Field<number> | undefined => {
    const a = opts.weightShards ? args.get(dest) : undefined;
    if (a?.unknown) return { value: 1, from: { kind: 'unknown', note: a.unknown } };
    const v = int(a);
    return v !== undefined && v >= 1 ? asWritten(v, a!) : undefined;
  };
  const weightShards = shards('tensor_parallel_num_weight_shards');
  const expertWeightShards = shards('expert_tensor_parallel_num_weight_shards');
  const etpArg = args.etpIgnored ? undefined : int(args.get('expert_tensor_parallel_size'));
  const etp: Field<number> =
    etpArg !== undefined
      ? asWritten(etpArg, args.get('expert_tensor_parallel_size')!)
      : args.etpDefault === 'one-with-ep' && ep.value > 1
        ? withInputs(fallback(1, 'Megatron Bridge (0.6 on) sets expert TP to 1 when EP > 1 and it is unset'), ep)
        : withInputs(fallback(tp.value, args.etpIgnored ? `${args.etpIgnored} (${tp.value})` : `Megatron sets expert TP to TP (${tp.value}) when unset`), tp);
  const spAsked = bool('sequence_parallel', false, 'sequence parallelism is off unless asked for');
  const distOpt = bool('use_distributed_optimizer', false, 'the distributed optimizer is off unless asked for');
  const hardware = planHardware(settings, args.hardwareHint, blackwellOnly(args));
  // The GPUs a node of the job has are the ones the allocation asks for, unless a setting says.
  if (args.allocation?.gpusPerNode && hardware.gpusPerNode.from.kind !== 'setting') hardware.gpusPerNode = args.allocation.gpusPerNode;

  const { vpp, vstages, perVstage } = virtualStages(args, pp);

  // Hybrid (Mamba) stacks are not transformer layers: their memory is not modelled, so no shape.
  const hybrid = args.get('hybrid_layer_pattern') || flag(args.get('is_hybrid_model'));
  const model = hybrid ? undefined : modelFromArgs(args) ?? planModel(settings);
  const arch = archOf(args);
  const precision = args.precision ?? precisionOf(args);
  const recompute = recomputeOf(args);
  const overlap: Plan['overlap'] = {
    gradReduce: bool('overlap_grad_reduce', false, 'gradient reduction is not overlapped unless asked for'),
    paramGather: bool('overlap_param_gather', false, 'parameter all-gather is not overlapped unless asked for'),
    tpComm: bool('tp_comm_overlap', false, 'TP communication overlap is off unless asked for'),
    moeA2A: bool('overlap_moe_expert_parallel_comm', false, 'EP all-to-all overlap is off unless asked for'),
  };
  const dedupDispatch = dispatcherOf(args, fallback);
  const { knobs, settings: knobSettings } = knobsOf(args);
  const nodes = args.nodes ?? fallback(1, 'one node unless the launcher says otherwise');
  const world = args.world;
  const notes: string[] = [...(args.notes ?? [])];
  // The Plan keeps what was asked for; at TP 1 Megatron turns sequence parallelism off (with a warning).
  const effective: NonNullable<Plan['effective']> = [];
  if (spAsked.value && tp.value === 1) effective.push({ field: spAsked, value: false, why: 'Megatron turns sequence parallelism off (with a warning) when TP is 1.' });
  const plan: Plan = {
    runtime: args.runtime,
    ...(args.yamlCfg ? { yamlCfg: true } : {}),
    style: 'megatron',
    world,
    nodes,
    perNode: world && args.nodes && Number.isInteger(world.value / nodes.value) ? derived(world.value / nodes.value, `per node = ${world.value} / ${nodes.value} nodes`, [world, nodes]) : undefined,
    tp,
    pp,
    vpp,
    layersPerVirtualStage: perVstage !== undefined && vstages === undefined ? asWritten(perVstage, args.get('num_layers_per_virtual_pipeline_stage')!) : undefined,
    cp,
    ...(encoder ? { encoder } : {}),
    ...(weightShards ? { weightShards } : {}),
    ...(expertWeightShards ? { expertWeightShards } : {}),
    ep,
    etp,
    dpReplicate: byDefault(1, 'Megatron replicates over DP'),
    dpShard: byDefault(1, 'no FSDP'),
    spDegree: byDefault(1, 'no Ulysses SP'),
    sp: spAsked,
    microBatch: num('micro_batch_size', 1, 'Megatron requires --micro-batch-size'),
    seqLength: args.get('seq_length') ? num('seq_length', 0, '') : settings.seqLength ? { value: settings.seqLength, from: { kind: 'setting', note: '`seq_length` setting' } } : undefined,
    model,
    ...(arch ? { arch } : {}),
    precision,
    sharding: shardingOf(args, distOpt, fallback, settings.targetVersions?.['megatron-core']),
    recompute,
    overlap,
    distributedOptimizer: distOpt,
    dedupDispatch,
    hardware,
    knobs,
    ...(Object.keys(knobSettings).length ? { knobSettings } : {}),
    notes,
    effective,
    notTraining: args.notTraining,
    frozen: frozenOf(args),
    allocation: args.allocation?.text,
    gradReduce16: flag(args.get('grad_reduce_in_bf16')) === true || undefined,
    rankOrder: flag(args.get('use_tp_pp_dp_mapping')) === true ? 'tp-cp-ep-pp-dp' : 'tp-cp-ep-dp-pp',
  };
  splitAndBatch(plan, args);
  return plan;
}

/**
 * The ranks of a vision encoder laid out apart (Megatron-LM 0.9–0.11, `validate_args`: with
 * `--encoder-pipeline-model-parallel-size` > 0 the model-parallel size is encoder TP × encoder PP ×
 * CP plus TP × PP × CP, encoder TP defaulting to TP); undefined when there is none.
 */
function encoderRanks(args: MegatronArgs, tp: Field<number>, cp: Field<number>): Field<number> | undefined {
  const pp = args.get('encoder_pipeline_model_parallel_size');
  const t = args.get('encoder_tensor_model_parallel_size');
  if (pp?.unknown || t?.unknown) return { value: 0, from: { kind: 'unknown', note: (pp?.unknown ?? t?.unknown)! } };
  const encPp = int(pp);
  if (!encPp || encPp < 1) return undefined;
  const encTp = int(t);
  const ranks = (encTp && encTp > 0 ? encTp : tp.value) * encPp * cp.value;
  return derived(ranks, `encoder ranks = encoder TP ${encTp && encTp > 0 ? encTp : `${tp.value} (TP)`} × encoder PP ${encPp} × CP ${cp.value} = ${ranks}`, [tp, cp]);
}

/** Virtual pipeline stages: given directly, or as layers per virtual stage. */
function virtualStages(args: MegatronArgs, pp: Field<number>): { vpp?: Field<number>; vstages?: number; perVstage?: number } {
  const vstages = int(args.get('num_virtual_stages_per_pipeline_rank')) ?? int(args.get('virtual_pipeline_model_parallel_size'));
  const perVstage = int(args.get('num_layers_per_virtual_pipeline_stage'));
  const layersArg = int(args.get('num_layers'));
  if (vstages !== undefined) return { vpp: asWritten(vstages, (args.get('num_virtual_stages_per_pipeline_rank') ?? args.get('virtual_pipeline_model_parallel_size'))!), vstages, perVstage };
  if (perVstage !== undefined && layersArg !== undefined && pp.value > 1) {
    const v = layersArg / pp.value / perVstage;
    if (Number.isInteger(v)) return { vpp: derived(v, `VPP = layers ${layersArg} / PP ${pp.value} / ${perVstage} layers per virtual stage = ${v}`, [pp, argField(args, 'num_layers'), argField(args, 'num_layers_per_virtual_pipeline_stage')]), perVstage };
  }
  return { perVstage };
}

/** Where each degree and switch a fix may change is written, or would be. */
function knobsOf(args: MegatronArgs): { knobs: Partial<Record<Knob, Path>>; settings: Partial<Record<Knob, string>> } {
  const knobs: Partial<Record<Knob, Path>> = {};
  const settings: Partial<Record<Knob, string>> = {};
  const knobDest: [Knob, string][] = [
    ['tp', 'tensor_model_parallel_size'],
    ['pp', 'pipeline_model_parallel_size'],
    ['cp', 'context_parallel_size'],
    ['ep', 'expert_model_parallel_size'],
    ['etp', 'expert_tensor_parallel_size'],
    ['sp', 'sequence_parallel'],
    ['microBatch', 'micro_batch_size'],
    ['globalBatch', 'global_batch_size'],
    ['overlapGradReduce', 'overlap_grad_reduce'],
    ['overlapParamGather', 'overlap_param_gather'],
    ['tpCommOverlap', 'tp_comm_overlap'],
    ['distributedOptimizer', 'use_distributed_optimizer'],
  ];
  const switches: readonly Knob[] = ['sp', 'overlapGradReduce', 'overlapParamGather', 'tpCommOverlap', 'distributedOptimizer'];
  // A switch to add exists only if the release that reads the file has it: known when the file
  // writes a later switch that builds on it (a release with parameter all-gather overlap has the
  // distributed optimizer and gradient-reduce overlap; one with TP communication overlap has
  // sequence parallelism).
  const implied: Partial<Record<Knob, string[]>> = { distributedOptimizer: ['overlap_param_gather'], overlapGradReduce: ['overlap_param_gather'], sp: ['tp_comm_overlap'] };
  // A run that does not train (inference, an export) is offered no training switch.
  const known = (knob: Knob) => !switches.includes(knob) || (!args.notTraining && (!args.flagsUnknown || (implied[knob] ?? []).some((d) => args.get(d) !== undefined)));
  for (const [knob, dest] of knobDest) {
    // A value derived from another setting (NeMo's optimizer name) has no switch of its own to set,
    // and one the runtime does not read here has none either.
    const derived = args.get(dest)?.derived;
    if (derived !== undefined) {
      (settings[knob] ??= derived);
      continue;
    }
    if (args.unreadSwitches?.[dest]) continue;
    const written = args.get(dest)?.path;
    const path = written ?? (known(knob) ? args.pathFor(dest) : undefined);
    if (path) knobs[knob] = path;
  }
  // Bridge, NeMo and --yaml-cfg name the virtual pipeline degree; Megatron-LM's flags give it per rank.
  const vpp = args.pathFor('virtual_pipeline_model_parallel_size') ?? args.pathFor('num_virtual_stages_per_pipeline_rank');
  if (vpp) knobs.vpp = vpp;
  return { knobs, settings };
}

/** The pipeline split the arguments ask for, the global batch, and the micro-batches per step it gives. */
function splitAndBatch(plan: Plan, args: MegatronArgs): void {
  const explicitSplit = ['pipeline_model_parallel_layout', 'decoder_first_pipeline_num_layers', 'decoder_last_pipeline_num_layers', 'hybrid_layer_pattern'].find((d) => args.get(d));
  const embedding = flag(args.get('account_for_embedding_in_pipeline_split')) === true;
  const loss = flag(args.get('account_for_loss_in_pipeline_split')) === true;
  if (explicitSplit || embedding || loss) {
    plan.pipelineSplit = { embedding, loss, explicit: explicitSplit ? `--${explicitSplit.replace(/_/g, '-')}` : undefined };
    // The layers of each stage, where the file writes them: a layout (a string, or Bridge's list of
    // lists), or the first and last stage's sizes.
    const layout = args.get('pipeline_model_parallel_layout');
    const chunks = layout && !layout.unknown ? layoutChunks(layout.value) : undefined;
    if (chunks) plan.pipelineSplit.layout = chunks;
    const first = args.get('decoder_first_pipeline_num_layers');
    const last = args.get('decoder_last_pipeline_num_layers');
    if (!layout && !first?.unknown && !last?.unknown && (int(first) !== undefined || int(last) !== undefined)) {
      plan.pipelineSplit.first = int(first);
      plan.pipelineSplit.last = int(last);
    }
  }
  const gbsArg = args.get('global_batch_size');
  const gbs = int(gbsArg);
  if (gbsArg?.unknown) plan.globalBatch = { value: 0, from: { kind: 'unknown', note: gbsArg.unknown } };
  else if (gbs !== undefined) plan.globalBatch = asWritten(gbs, gbsArg!);
  const dp = deriveMegatronGrid(plan);
  if (dp !== undefined && plan.microBatch) {
    if (plan.globalBatch && plan.globalBatch.value > 0 && plan.globalBatch.value % (plan.microBatch.value * dp) === 0) {
      const m = plan.globalBatch.value / (plan.microBatch.value * dp);
      plan.numMicroBatches = derived(m, `micro-batches per step = GBS ${plan.globalBatch.value} / (MBS ${plan.microBatch.value} × DP ${dp}) = ${m}`, [plan.globalBatch, plan.microBatch, plan.dp]);
    }
    if (!plan.globalBatch) plan.globalBatch = withInputs(derived(plan.microBatch.value * dp, `GBS defaults to MBS × DP = ${plan.microBatch.value * dp}`, [plan.microBatch, plan.dp]), defaultOf(args, 0, ''));
  }
}

/** What DP shards: Megatron-FSDP by its strategy, PyTorch FSDP2 everything, else the distributed optimizer. */
function shardingOf(args: MegatronArgs, distOpt: Field<boolean>, fallback: <T>(value: T, note: string) => Field<T>, release?: string): Field<Sharding> {
  const mfsdp = args.get('use_megatron_fsdp');
  if (flag(mfsdp)) {
    const strategy = args.get('data_parallel_sharding_strategy');
    // The default strategy is no_shard up to 0.17 and optim_grads_params from 0.18.0
    // (training/arguments.py@core_v0.17.0:2709, @core_v0.18.0:2798): the targeted release's, else the newest's.
    const older = !!release && isVersion(release) && !versionAtLeast(release, '0.18.0');
    const s = typeof strategy?.value === 'string' ? strategy.value : older ? 'no_shard' : 'optim_grads_params';
    const value: Sharding = {
      ...(s === 'no_shard' ? { kind: 'fsdp', fsdp: 'no-shard', group: 1 }
      : s === 'optim' ? { kind: 'distributed-optimizer', group: 1 }
      : s === 'optim_grads' ? { kind: 'fsdp', fsdp: 'grad-op', group: 1 }
      : { kind: 'fsdp', fsdp: 'full', group: 1 }),
      impl: 'megatron-fsdp',
    };
    return strategy ? asWritten(value, strategy) : fallback(value, older ? `Megatron-FSDP before 0.18 shards nothing (no_shard) unless told otherwise` : 'Megatron-FSDP shards optimizer, gradients and parameters (optim_grads_params) unless told otherwise (from 0.18; no_shard before)');
  }
  const fsdp2 = args.get('use_torch_fsdp2');
  if (flag(fsdp2)) return asWritten({ kind: 'fsdp', fsdp: 'full', group: 1, impl: 'torch-fsdp2' }, fsdp2!);
  // Neither FSDP switch seen: in an open argument set either may still be passed.
  if (args.open || args.defaultsUnknown) return { value: { kind: distOpt.value ? 'distributed-optimizer' : 'none', group: 1 }, from: { kind: 'unknown', note: (args.open ?? args.defaultsUnknown)! } };
  return { value: { kind: distOpt.value ? 'distributed-optimizer' : 'none', group: 1 }, from: distOpt.from };
}

/** The model dimensions the arguments write, one by one (a degree must fit them even when the shape is incomplete). */
function archOf(args: MegatronArgs): Plan['arch'] | undefined {
  const field = (dest: string): Field<number> | undefined => {
    const a = args.get(dest);
    const v = int(a);
    return a && !a.unknown && v !== undefined && v >= 1 ? asWritten(v, a) : undefined;
  };
  const mla = flag(args.get('multi_latent_attention')) === true;
  const arch: NonNullable<Plan['arch']> = {};
  const heads = field('num_attention_heads');
  const groups = !mla && (args.configFields || flag(args.get('group_query_attention'))) ? field('num_query_groups') : undefined;
  const layers = field('num_layers');
  const experts = field('num_moe_experts');
  if (heads) arch.heads = heads;
  if (groups) arch.queryGroups = groups;
  if (layers) arch.layers = layers;
  if (experts) arch.experts = experts;
  return Object.keys(arch).length ? arch : undefined;
}

function modelFromArgs(args: MegatronArgs): Field<ModelShape> | undefined {
  const layers = int(args.get('num_layers'));
  const hidden = int(args.get('hidden_size'));
  const heads = int(args.get('num_attention_heads'));
  if (!layers || !hidden || !heads) return undefined;
  const gqa = args.configFields || flag(args.get('group_query_attention'));
  const groups = gqa ? int(args.get('num_query_groups')) : undefined;
  const swiglu = flag(args.get('swiglu')) ?? (args.get('activation_func')?.value === 'swiglu' ? true : undefined);
  const shape: ModelShape = {
    layers,
    hidden,
    heads,
    queryGroups: groups,
    kvChannels: int(args.get('kv_channels')),
    ffn: int(args.get('ffn_hidden_size')),
    swiglu: swiglu || undefined,
    vocab: int(args.get('padded_vocab_size')) ?? int(args.get('vocab_size')),
    untiedEmbeddings: flag(args.get('untie_embeddings_and_output_weights')) || undefined,
    experts: int(args.get('num_moe_experts')),
    moeFfn: int(args.get('moe_ffn_hidden_size')),
    topK: int(args.get('moe_router_topk')),
    sharedExpertFfn: int(args.get('moe_shared_expert_intermediate_size')),
  };
  const from: Provenance = { kind: 'written', path: args.get('num_layers')!.path };
  // Dimensions left out take Megatron's defaults, known only when every argument is visible.
  const inputs = ['num_layers', 'hidden_size', 'num_attention_heads'].map((d) => argField(args, d));
  if (args.open) inputs.push(defaultOf(args, 0, ''));
  const field = withInputs({ value: shape, from }, ...inputs);
  return field;
}

function precisionOf(args: MegatronArgs): Field<Precision> {
  const fp8 = args.get('fp8');
  if (fp8 && fp8.value) return asWritten('fp8', fp8);
  for (const p of ['bf16', 'fp16'] as const) {
    const a = args.get(p);
    if (flag(a)) return asWritten(p, a!);
  }
  return defaultOf(args, 'fp32', 'Megatron trains in fp32 without --bf16 or --fp16');
}

function recomputeOf(args: MegatronArgs): Field<'none' | 'selective' | 'full'> {
  const g = args.get('recompute_granularity');
  if (g && (g.value === 'full' || g.value === 'selective')) return asWritten(g.value, g);
  const legacy = args.get('recompute_activations');
  if (flag(legacy)) return asWritten('selective', legacy!);
  return defaultOf(args, 'selective', 'Megatron keeps all activations but (with Transformer Engine) recomputes attention: the selective case');
}

/** An argument as a Plan field (for the certainty of what is derived from it). */
function argField(args: MegatronArgs, dest: string): Field<unknown> {
  const a = args.get(dest);
  if (!a) return defaultOf(args, undefined, '');
  if (a.unknown) return { value: undefined, from: { kind: 'unknown', note: a.unknown } };
  return asWritten(a.value, a);
}

/** The field, no surer than the weakest of `inputs`. */
function withInputs<T>(field: Field<T>, ...inputs: Field<unknown>[]): Field<T> {
  const basis = basisOf([field, ...inputs]);
  if (basis.certainty !== 'assumed' && basis.certainty !== 'unknown') return field;
  return { value: field.value, from: { kind: 'derived', formula: describeProvenance(field.from), basis } };
}
