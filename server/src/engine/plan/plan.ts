/**
 * The Plan: the parallel layout a config describes, in one shape for every format. Each field
 * knows where its value came from: written in the file, an upstream default, derived by a formula,
 * the hardware profile, a setting, or unknown. Rules, hovers, the code lens and `shardwise layout`
 * read the Plan; format adapters fill it.
 */
import { addInput, knownBasis, type Basis, type Certainty } from '../certainty';
import type { Path } from '../types';
import type { AdapterMemory } from './adapters';
import type { HardwareProfile } from './hardware';
import type { ModelShape, Precision, Sharding } from './memory';

export type Provenance =
  /** Written in the document at this path. */
  | { kind: 'written'; path: Path }
  /** An upstream default, with which tool (and version) applies it. */
  | { kind: 'default'; note: string }
  /** Computed from other fields; `basis` is how sure its inputs are (known when absent). */
  | { kind: 'derived'; formula: string; basis?: Basis }
  /**
   * From the hardware profile; `assumed` says why, when nobody chose the profile; `unknown` why the
   * profile cannot stand for the hardware (the file names GPUs no profile describes).
   */
  | { kind: 'hardware'; note: string; assumed?: string; unknown?: string }
  /** From a directive, `.shardwise.yaml`, the editor settings or the command line. */
  | { kind: 'setting'; note: string }
  /**
   * A value the context may override: a `${VAR:-x}` fallback of a variable the script does not set,
   * one arm of an undecided branch, the default hardware profile. `path` is where it is written, if it is.
   */
  | { kind: 'assumed'; note: string; path?: Path }
  /** Not knowable from the file (e.g. set in the training script or the environment). */
  | { kind: 'unknown'; note: string };

export interface Field<T> {
  value: T;
  from: Provenance;
}

/** Plan fields a format can write, so that fixes know where to put a new value. */
export type Knob = 'world' | 'tp' | 'pp' | 'vpp' | 'cp' | 'ep' | 'etp' | 'dpReplicate' | 'dpShard' | 'sp' | 'microBatch' | 'globalBatch' | 'numMicroBatches' | 'overlapGradReduce' | 'overlapParamGather' | 'tpCommOverlap' | 'distributedOptimizer';

export interface Plan {
  /** What runs the layout, for messages ("accelerate's Megatron-LM plugin", "FSDP2 + N-D mesh"). */
  runtime: string;
  /**
   * Megatron-LM reads the arguments from a `--yaml-cfg` file (yaml_arguments.py and its checks), not
   * from flags through argparse and `validate_args` (a launch script, a functional test's MODEL_ARGS).
   */
  yamlCfg?: boolean;
  /** Which semantics the degrees follow: Megatron's grid, a device mesh, or plain data parallelism. */
  style: 'megatron' | 'mesh' | 'data-parallel' | 'zero';
  world?: Field<number>;
  nodes: Field<number>;
  /** Processes started on each node. */
  perNode?: Field<number>;
  tp: Field<number>;
  pp: Field<number>;
  vpp?: Field<number>;
  /** VPP written as layers per virtual stage (`--num-layers-per-virtual-pipeline-stage`), as written. */
  layersPerVirtualStage?: Field<number>;
  cp: Field<number>;
  /**
   * The ranks of a vision encoder laid out apart from the decoder (Megatron-LM 0.9–0.11 with
   * `--encoder-pipeline-model-parallel-size` > 0): encoder TP × encoder PP × CP, which add to the
   * model-parallel size the world must divide by.
   */
  encoder?: Field<number>;
  ep: Field<number>;
  etp: Field<number>;
  /**
   * Megatron-LM's generalized TP (`--tensor-parallel-num-weight-shards`, whose parser has the flag
   * from Megatron Core 0.19.0 and refuses it before): the total shards of each weight, TP times a
   * weight-shard factor whose ranks count into the model-parallel size (see `gtpFactor`).
   */
  weightShards?: Field<number>;
  /** The expert layers' counterpart (`--expert-tensor-parallel-num-weight-shards`): expert TP times its factor. */
  expertWeightShards?: Field<number>;
  /** Replicated data parallelism (DDP, or HSDP's outer dimension). */
  dpReplicate: Field<number>;
  /** Sharded data parallelism (FSDP / ZeRO shard group). */
  dpShard: Field<number>;
  /** Ulysses-style sequence-parallel degree (DeepSpeed ALST), distinct from Megatron's SP flag. */
  spDegree: Field<number>;
  /** Dense data-parallel size (derived, never asked for). */
  dp?: Field<number>;
  /** Expert data-parallel size (derived). */
  expertDp?: Field<number>;
  /** Megatron-style sequence parallelism (activations split across TP ranks). */
  sp: Field<boolean>;
  microBatch?: Field<number>;
  globalBatch?: Field<number>;
  numMicroBatches?: Field<number>;
  gradAccum?: Field<number>;
  seqLength?: Field<number>;
  /**
   * How layers are assigned to pipeline stages when not evenly: the embedding and/or loss counted as
   * layers (Megatron's account_for_* flags), or an explicit layout / first-last stage sizes.
   */
  pipelineSplit?: {
    embedding: boolean;
    loss: boolean;
    explicit?: string;
    /** The decoder layers of each model chunk a `pipeline_model_parallel_layout` writes, in its order. */
    layout?: number[];
    /** The first and last stage's layers (`--decoder-first/last-pipeline-num-layers`), where written. */
    first?: number;
    last?: number;
  };
  model?: Field<ModelShape>;
  /**
   * The model dimensions the arguments write, also when the whole shape is not known (then `model`
   * is absent): the constraints Megatron puts on a degree (see `shapeLimits`).
   */
  arch?: Partial<Record<'heads' | 'queryGroups' | 'layers' | 'experts', Field<number>>>;
  /** LoRA/QLoRA: only adapters are trained, over frozen (possibly quantized) base weights. */
  adapter?: Field<AdapterMemory>;
  precision: Field<Precision>;
  sharding: Field<Sharding>;
  recompute: Field<'none' | 'selective' | 'full'>;
  overlap: Partial<Record<'gradReduce' | 'paramGather' | 'tpComm' | 'p2p' | 'moeA2A', Field<boolean>>>;
  distributedOptimizer?: Field<boolean>;
  /**
   * Tokens dispatched to the experts by the flex dispatcher (DeepEP, HybridEP), which sends a token
   * once per remote NVLink domain, rather than by the all-to-all or all-gather dispatcher.
   */
  dedupDispatch?: Field<boolean>;
  hardware: { profile: HardwareProfile; from: Provenance; nvlinkDomain: Field<number>; gpusPerNode: Field<number> };
  /** Where each knob is written in this format (fixes write there). Absent: the format cannot express it. */
  knobs: Partial<Record<Knob, Path>>;
  /**
   * How the file sets a knob it holds in another form, for messages (NeMo's distributed optimizer is
   * `model.optim.name: distributed_fused_adam`): no fix writes such a knob.
   */
  knobSettings?: Partial<Record<Knob, string>>;
  /** Notes about this runtime's own arithmetic the user should know (shown in hover and `layout`). */
  notes: string[];
  /** Why the run is not training (an inference or export entry point): training memory does not apply. */
  notTraining?: string;
  /** The model described is frozen by the run's flags (see MemoryInput.frozen). */
  frozen?: Field<{ note: string; forwardOnly?: boolean }>;
  /** The scheduler allocation the file asks for, in words (`4 nodes × 8 GPUs (SBATCH)`). */
  allocation?: string;
  /**
   * Megatron's rank order, fastest-varying first: `tp-cp-ep-dp-pp` by default, `tp-cp-ep-pp-dp`
   * with `--use-tp-pp-dp-mapping`. Absent for other runtimes (a device mesh is row-major).
   */
  rankOrder?: 'tp-cp-ep-dp-pp' | 'tp-cp-ep-pp-dp';
  /** Megatron reduces gradients in bf16 (`--grad-reduce-in-bf16`): a 2-byte main-gradient buffer. */
  gradReduce16?: boolean;
  /**
   * Fields whose value the runtime changes silently (sequence parallelism off at TP 1; Bridge turning
   * TP overlap off without it): the field keeps what was written, this says what actually runs.
   */
  effective?: { field: Field<unknown>; value: unknown; why: string }[];
}

export function written<T>(value: T, path: Path): Field<T> {
  return { value, from: { kind: 'written', path } };
}

export function byDefault<T>(value: T, note: string): Field<T> {
  return { value, from: { kind: 'default', note } };
}

/**
 * A value computed from others: as sure as the weakest of `inputs` (the fields the formula reads),
 * and never surer than derived.
 */
export function derived<T>(value: T, formula: string, inputs: readonly (Field<unknown> | undefined)[] = []): Field<T> {
  const basis = basisOf(inputs);
  return { value, from: basis.certainty === 'derived' || basis.certainty === 'written' || basis.certainty === 'defaulted' ? { kind: 'derived', formula } : { kind: 'derived', formula, basis } };
}

export function assumed<T>(value: T, note: string, path?: Path): Field<T> {
  return { value, from: path ? { kind: 'assumed', note, path } : { kind: 'assumed', note } };
}

/** How a field is known (see certainty.ts), with the assumption or the reason it is unknown. */
export function certaintyOf(from: Provenance): { certainty: Certainty; note?: string; basis?: Basis } {
  switch (from.kind) {
    case 'written':
    case 'setting':
      return { certainty: 'written' };
    case 'default':
      return { certainty: 'defaulted' };
    case 'derived':
      return from.basis ? { certainty: from.basis.certainty, basis: from.basis } : { certainty: 'derived' };
    case 'hardware':
      if (from.unknown) return { certainty: 'unknown', note: from.unknown };
      return from.assumed ? { certainty: 'assumed', note: from.assumed } : { certainty: 'derived' };
    case 'assumed':
      return { certainty: 'assumed', note: from.note };
    case 'unknown':
      return { certainty: 'unknown', note: from.note };
  }
}

/** The weakest of several fields, with every assumption and unknown behind them. */
export function basisOf(fields: readonly (Field<unknown> | undefined)[]): Basis {
  const b = knownBasis();
  b.certainty = 'derived';
  for (const f of fields) if (f) addProvenance(b, f.from);
  return b;
}

export function addProvenance(b: Basis, from: Provenance): void {
  const c = certaintyOf(from);
  if (c.basis) {
    addInput(b, c.basis.certainty);
    for (const a of c.basis.assumptions) addInput(b, 'assumed', a);
    for (const u of c.basis.unknowns) addInput(b, 'unknown', u);
  } else addInput(b, c.certainty, c.note);
}

/** "written in `num_processes`", "default: ...", "= 64 / (8 × 2)" — for hovers and `layout`. */
export function describeProvenance(p: Provenance): string {
  switch (p.kind) {
    case 'written':
      return `set by \`${p.path.join('.')}\``;
    case 'default':
      return `default: ${p.note}`;
    case 'derived':
      return p.basis?.assumptions.length ? `${p.formula} (assuming ${p.basis.assumptions.join('; ')})` : p.formula;
    case 'hardware':
      return `hardware: ${p.note}`;
    case 'setting':
      return p.note;
    case 'assumed':
      return `assumed: ${p.note}`;
    case 'unknown':
      return `unknown: ${p.note}`;
  }
}
