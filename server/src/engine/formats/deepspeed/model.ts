/**
 * What the DeepSpeed rules read from a `ds_config.json`: values as DeepSpeed reads them (pydantic
 * aliases folded, string booleans read as pydantic reads them inside its sections, `"auto"` kept
 * apart), where each is written, and the Accelerate configs that point at the file.
 */
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { Path } from '../../types';
import { CLASSIFY, type Classifier } from '../../certainty';

/** `zero_optimization` keys pydantic accepts under two names (field name and alias). */
export const ZERO_ALIASES: Record<string, string> = {
  stage3_prefetch_bucket_size: 'prefetch_bucket_size',
  stage3_param_persistence_threshold: 'param_persistence_threshold',
  stage3_model_persistence_threshold: 'model_persistence_threshold',
  stage3_max_live_parameters: 'max_live_parameters',
  stage3_max_reuse_distance: 'max_reuse_distance',
  stage3_gather_16bit_weights_on_model_save: 'gather_16bit_weights_on_model_save',
  stage3_module_granularity_threshold: 'module_granularity_threshold',
  stage3_use_all_reduce_for_fetch_params: 'use_all_reduce_for_fetch_params',
  stage3_allgather_sequential: 'allgather_sequential',
};

/** An Accelerate config that points at this file: what it launches. */
export interface DeepSpeedReferrer {
  path: string;
  /** Its `distributed_type` when valid. */
  distributedType: string | undefined;
  /** Its `num_processes`. */
  numProcesses: number | undefined;
  /**
   * The program `accelerate launch` starts with it, which the config does not name: reading it is
   * the assumption that it is not a Transformers Trainer (the Trainer fills the placeholders first),
   * unless a launch script of the repository starts it with a program its flags show is one
   * (`trainer`: which script, and how that is known).
   */
  program: { assumed: string } | { trainer: string };
  /**
   * Its `parallelism_config_sp_size` (Accelerate's Ulysses degree): 1 when not written, `unknown`
   * when written as something else than a number.
   */
  spSize?: number | 'unknown';
}

export interface DeepSpeedModel {
  /** How reads through a rule's tracking view are known (see certainty.ts). */
  [CLASSIFY]?: Classifier;
  doc: SourceDoc;
  /** The value at a path as written (with the alias of a `zero_optimization` key), `null` = absent. */
  get(path: Path): unknown;
  /** Where the value is written (the alias's path when only the alias is), or the canonical path. */
  where(path: Path): Path;
  has(path: Path): boolean;
  isAuto(path: Path): boolean;
  /** A number, or undefined for `"auto"`, absent or not a number. */
  num(path: Path): number | undefined;
  /** A boolean as pydantic reads it (text such as `"true"`, `"off"`, `"1"` accepted); undefined when absent or `"auto"`. */
  bool(path: Path): boolean | undefined;
  /** The ZeRO stage when written as a number (0 when `zero_optimization` is absent; undefined for `"auto"`). */
  stage: number | undefined;
  /** True when the stage is written (or `"auto"`), false when it is DeepSpeed's default 0. */
  stageWritten: boolean;
  /** The Accelerate configs that use this file (from the host). */
  referrers: DeepSpeedReferrer[];
  /** The Transformers Trainer recipes and launch scripts that use this file (from the host): the Trainer fills its `"auto"` values. */
  trainers: { path: string }[];
  /**
   * Why the program that loads this file passes deepspeed.initialize an optimizer and a scheduler of
   * its own and loads the JSON itself with json.load (every launch script naming it runs
   * Megatron-DeepSpeed); undefined otherwise.
   */
  ownOptimizer?: string;
}

function alias(path: Path): Path | undefined {
  if (path.length === 2 && path[0] === 'zero_optimization') {
    const key = String(path[1]);
    const other = ZERO_ALIASES[key] ?? Object.entries(ZERO_ALIASES).find(([, a]) => a === key)?.[0];
    return other ? [path[0], other] : undefined;
  }
  return undefined;
}

export function deepspeedModel(doc: SourceDoc, referrers: DeepSpeedReferrer[], trainers: { path: string }[] = []): DeepSpeedModel {
  const raw = (path: Path): unknown => {
    const v = doc.value(path);
    return v === null ? undefined : v;
  };
  const where = (path: Path): Path => {
    if (doc.node(path)) return path;
    const a = alias(path);
    return a && doc.node(a) ? a : path;
  };
  const get = (path: Path): unknown => raw(where(path));
  /** Why the value at a path is not known (a template's placeholder), if it is not. */
  const marked = (path: Path): string | undefined => {
    const n = doc.node(where(path));
    return n?.kind === 'scalar' ? n.unknown : undefined;
  };
  const zero = get(['zero_optimization']);
  const stageRaw = get(['zero_optimization', 'stage']);
  // The legacy boolean form means stage 1.
  const stage = typeof zero === 'boolean' ? (zero ? 1 : 0) : typeof stageRaw === 'number' ? stageRaw : stageRaw === undefined ? 0 : undefined;
  return {
    doc,
    get,
    where,
    has: (path) => get(path) !== undefined,
    isAuto: (path) => get(path) === 'auto',
    num: (path) => {
      const v = get(path);
      return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
    },
    bool: (path) => {
      const v = get(path);
      if (typeof v === 'boolean') return v;
      // pydantic's words for a boolean (lax mode, either major version).
      if (typeof v === 'string' && /^(true|false|yes|no|on|off|t|f|y|n|1|0)$/i.test(v)) return /^(true|yes|on|t|y|1)$/i.test(v);
      return undefined;
    },
    stage,
    stageWritten: stageRaw !== undefined || typeof zero === 'boolean' || !!marked(['zero_optimization', 'stage']),
    referrers,
    trainers,
    // A value a template fills in (`"stage": CONFIG_ZERO_STAGE`) is not known, not absent.
    [CLASSIFY]: (key, params) => {
      const at = key === 'stage' || key === 'stageWritten' ? ['zero_optimization', 'stage'] : params && typeof key === 'string' && PATH_READERS.has(key) ? (params[0] as Path) : undefined;
      const why = at ? marked(at) : undefined;
      return why ? { certainty: 'unknown' as const, note: why } : undefined;
    },
  };
}

const PATH_READERS = new Set(['get', 'has', 'isAuto', 'num', 'bool', 'where']);

/** The number of processes every referrer launches, when they agree. */
export function referrerWorld(m: DeepSpeedModel): { value: number; from: string } | undefined {
  const worlds = m.referrers.map((r) => ({ n: r.distributedType === 'DEEPSPEED' ? r.numProcesses : undefined, path: r.path }));
  if (!worlds.length || worlds.some((w) => w.n === undefined)) return undefined;
  const first = worlds[0].n!;
  if (worlds.some((w) => w.n !== first)) return undefined;
  const name = worlds[0].path.split(/[\\/]/).pop();
  return { value: first, from: `\`num_processes\` of ${name}${worlds.length > 1 ? ` and ${worlds.length - 1} other Accelerate config${worlds.length > 2 ? 's' : ''}` : ''}` };
}

/** DeepSpeed's own optimizers (matched case-insensitively); anything else is a torch.optim class. */
export const DS_OPTIMIZERS = ['adam', 'adamw', 'adagrad', 'lamb', 'onebitadam', 'zerooneadam', 'onebitlamb', 'muadam', 'muadamw', 'musgd', 'lion', 'muon'];

export function optimizerType(m: DeepSpeedModel): string | undefined {
  const t = m.get(['optimizer', 'type']);
  return typeof t === 'string' ? t : undefined;
}

/** `optimizer.params.torch_adam` is on: DeepSpeed builds torch.optim's Adam/AdamW for `Adam`/`AdamW`. */
export const torchAdam = (m: DeepSpeedModel): boolean => m.bool(['optimizer', 'params', 'torch_adam']) === true;

/** The optimizer is offloaded to `cpu` or `nvme`: what the engine's `zero_use_cpu_optimizer()` tests (runtime/engine.py, 0.7.2 on). */
export const offloadsOptimizer = (m: DeepSpeedModel): boolean => ['cpu', 'nvme'].includes(String(m.get(['zero_optimization', 'offload_optimizer', 'device']) ?? '').toLowerCase());

/** The three batch keys DeepSpeed's batch check reads (and elasticity replaces). */
export const DS_BATCH_KEYS = ['train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps'] as const;

/** The first DeepSpeed release that reads an `elasticity` section (runtime/config.py@v0.3.9). */
export const ELASTICITY_SINCE = '0.3.9';

/** Whether Python takes a JSON value as true (`if value:`); undefined for a value the file does not settle. */
function pyTruthy(v: unknown): boolean | undefined {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return undefined;
}

/**
 * What elasticity does to the batch keys (runtime/config.py, DeepSpeed 0.3.9 on; the caller gates on
 * the release): with `elasticity.enabled` DeepSpeed computes the three batch keys itself before its
 * batch check. `replaced`: `ignore_non_elastic_batch_info` is set, so any written batch key is
 * overwritten (with a warning); `refused`: it is not, and a written batch key stops DeepSpeed with an
 * ElasticityConfigError; `elastic`: enabled, no batch key written. Undefined: elasticity is off.
 */
export function elasticBatch(m: DeepSpeedModel): 'replaced' | 'refused' | 'elastic' | undefined {
  const section = m.get(['elasticity']);
  if (section === undefined || typeof section !== 'object' || Array.isArray(section)) return undefined;
  if (!pyTruthy(m.get(['elasticity', 'enabled']))) return undefined;
  if (!DS_BATCH_KEYS.some((k) => m.has([k]))) return 'elastic';
  return pyTruthy(m.get(['elasticity', 'ignore_non_elastic_batch_info'])) ? 'replaced' : 'refused';
}

/**
 * The section DeepSpeed takes its bf16 options from: `bf16`, or the legacy `bfloat16` when the file
 * has no `bf16` (runtime/config.py get_bfloat16_enabled from 0.6.0, precision_config.py
 * get_bfloat16_config from 0.17.1). A `bfloat16` beside a `bf16` is not read.
 */
export function bf16Section(m: DeepSpeedModel): 'bf16' | 'bfloat16' {
  return m.has(['bf16']) ? 'bf16' : 'bfloat16';
}

/** The path of a bf16 option in the section DeepSpeed reads (see bf16Section). */
export function bf16Path(m: DeepSpeedModel, key: string): Path {
  return [bf16Section(m), key];
}

/**
 * ZeRO stage 1 with bf16 (fp16 off) and fp32 gradient accumulation written
 * (`data_types.grad_accum_dtype`, any DtypeEnum spelling of fp32): the case runtime/engine.py
 * `_do_optimizer_sanity_check` hands to its BF16 optimizer from 0.8.1 (for any offload until 0.10.0,
 * without CPU optimizer offload from 0.10.1), and refuses under ZeRO in 0.7.6–0.8.0. Before 0.7.6
 * there is no `data_types` and the ZeRO optimizer runs; the caller gates on the release.
 */
export function bf16Stage1(m: DeepSpeedModel): boolean {
  const accum = String(m.get(['data_types', 'grad_accum_dtype']) ?? '').toLowerCase();
  return m.stage === 1 && m.bool(bf16Path(m, 'enabled')) === true && m.bool(['fp16', 'enabled']) !== true && ['fp32', 'float32', 'float', 'torch.float32'].includes(accum);
}

/**
 * What Accelerate (and a Trainer that prepares DeepSpeed through it) says when it meets an `"auto"`
 * it has no value for: `fill_match` in utils/dataclasses.py@v1.12.0:1321-1370. `short`: the first
 * sentence only.
 */
export function accelerateAutoQuote(key: string, short = false): string {
  return short ? `("\`${key}\` not found in kwargs")` : `("\`${key}\` not found in kwargs. Please specify \`${key}\` without \`auto\` …")`;
}
