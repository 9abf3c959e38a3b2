/** What the engine can be told from outside the file: editor settings, `.shardwise.yaml`, CLI flags. */
import type { Severity } from './types';

export const FORMAT_IDS = ['accelerate', 'deepspeed', 'megatron-args', 'megatron-yaml', 'megatron-bridge', 'nemo', 'trainer'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export const TOOLS = ['accelerate', 'deepspeed', 'megatron-core', 'transformers'] as const;
export type Tool = (typeof TOOLS)[number];

export type RuleLevel = Severity | 'off';

export interface EngineSettings {
  /** Hardware profile id (see hardware.ts). */
  hardware?: string;
  gpusPerNode?: number;
  nvlinkDomain?: number;
  /** Per-rule severity override. */
  rules?: Record<string, RuleLevel>;
  /** Versions the configs target, for version-aware checks (absent: the newest known). */
  targetVersions?: Partial<Record<Tool, string>>;
  /** Glob → format id, to force the format of matching files. */
  associations?: Record<string, FormatId>;
  /** The model, for formats that do not describe it: a preset id or explicit dimensions. */
  model?: string | ModelDims;
  /** Sequence length and micro-batch size, for formats that leave them to the training script. */
  seqLength?: number;
  microBatch?: number;
  /** World size and node count, for formats that leave them to the launcher (Megatron YAML). */
  worldSize?: number;
  nodes?: number;
  /**
   * The Megatron argument parser of the checkout the file lives in, when the host found one (see
   * formats/megatron/checkout.ts): its flags are accepted, and a fork's flags are not judged by upstream's.
   */
  megatronCheckout?: MegatronCheckout;
  /**
   * Set by the engine when a launch script runs a Megatron-LM it cannot read (a submodule not checked
   * out, a path the script is given): where, in words, and why. Its flags are not known, nor its
   * release unless `release` says it (a submodule pinned at the commit of a release tag).
   */
  megatronUnseen?: { where: string; why: string; release?: { version: string; evidence: string }; /** A copy the entry program patches (an adaptor it imports): not upstream's code. */ patched?: boolean };
  /**
   * The flags the `add_argument` calls of the repository the file sits in define, as the host indexed
   * them (host/repository.ts): a flag some parser there defines is accepted where a Megatron launch
   * script or MODEL_ARGS map is judged, and one none defines says what was searched.
   */
  repositoryFlags?: RepositoryFlags;
  /**
   * Set by the engine for a Megatron launch script whose entry script is not one of Megatron-LM's own
   * `pretrain_*.py`: the script, and the flags its own parser adds to Megatron-LM's when they are known
   * (a script Megatron-LM ships, `x-entrypoint-flags`). Such flags, and any flag of a script whose
   * additions are not known, are that script's: the shared parser's history does not date them.
   */
  megatronEntry?: { script: string; flags?: string[]; /** Megatron-LM's own script from this release (`train_rl.py`): its flags are Megatron-LM's from then on. */ ownFrom?: string };
  /**
   * The releases the repository's dependency files pin, per tool (host/pins.ts reads the nearest
   * folder that names each tool): used when no setting names the release and no checkout gives it.
   */
  pins?: Partial<Record<Tool, Pin>>;
  /**
   * The GPUs the repository's job descriptions ask for (a SkyPilot task, a Kubernetes manifest; see
   * plan/requests.ts): evidence when a job names the file, else an assumption (`assumed`).
   */
  jobHardware?: { id: string; note: string; assumed?: boolean };
  /**
   * Files longer than this (in characters) are reported, not analysed: DEFAULT_MAX_FILE_SIZE unless
   * the user raises it (a CLI flag, an editor setting; never a file's directives or `.shardwise.yaml`).
   */
  maxFileSize?: number;
  /** Slurm partition and constraint names → hardware profile ids (`slurm:` in .shardwise.yaml). */
  slurm?: SlurmHardware;
}

/** The size past which a file is reported, not analysed: twenty times the largest real config. */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** A tool's release as a dependency file gives it. */
export interface Pin {
  /** A PEP 440 specifier (`==0.8.0`, `>=0.13,<0.14`); several files' specifiers are joined with commas. */
  spec: string;
  /** The package as the file names it (`megatron-core`). */
  package: string;
  /** The file(s) that say so, by name, for messages (`requirements.txt`). */
  file: string;
  /**
   * Found in a folder that is not at or above the file (`../docker/Dockerfile`): every pin of the tool
   * in the repository says the same, so it is likely what runs the file, but that is an assumption.
   */
  elsewhere?: boolean;
}

export interface MegatronCheckout {
  /** The parser file, relative to the checkout's root (for messages). */
  parser: string;
  /** The flag spellings the parser defines. */
  flags: readonly string[];
  /** The release of Megatron Core in the checkout (its `megatron/core/package_info.py`), when it says. */
  version?: string;
  /** Where the checkout is, in words, when it is not the one the file lives in (a path on PYTHONPATH). */
  where?: string;
  /**
   * The parser's code without its comment lines, adjacent string literals joined and white space
   * collapsed: what its checks say (formats/megatron/checkout.ts, `checkoutSays`).
   */
  code?: string;
}

export interface RepositoryFlags {
  /** The flag spellings (`--my-flag`, `-x`) of every `add_argument(` call found. */
  flags: readonly string[];
  /** Python files read. */
  files: number;
  /** Of those, the ones with `add_argument(` calls that define flags. */
  withParsers: number;
  /** Some of them, most flags first (relative to the root), for messages. */
  parsers?: readonly string[];
  /** Every Python file under the root was read (no bound was reached, none was unreadable). */
  complete: boolean;
  /** When it is not complete: why (the bound reached, the files not read). */
  incomplete?: string;
  /** The repository's root folder. */
  root?: string;
  /**
   * Config paths (`model.global_batch_size`) the repository's Python assigns before the config is
   * used (see `configAssignments`): such a value in a YAML config is not the one that runs.
   */
  configKeys?: readonly string[];
  /** Config key names the repository's Python reads (see `configReads`): such a key is not a misspelling. */
  configReads?: readonly string[];
  /**
   * DeepSpeed config keys the repository's Python reads from a DeepSpeed config (see
   * `deepspeedConfigReads`), each with a file that reads it (relative to the root): a key DeepSpeed
   * does not have that the repository's own code reads is the repository's setting, not a slip.
   */
  deepspeedReads?: readonly { key: string; file: string }[];
  /** A file of the repository that reads its arguments leniently (`parse_known_args`), if one does. */
  lenient?: string;
  /**
   * Megatron arguments the repository's own Python (outside a `megatron/` package) sets on the parsed
   * namespace (see `argsAssignments`): one the launch script leaves out does not keep Megatron's default.
   */
  argsSet?: readonly string[];
}

/** What a RepositoryFlags setting may hold: far above any real repository (Megatron-LM has some 1,200 flags). */
export const REPOSITORY_FLAG_LIMITS = { flags: 50_000, flagLength: 200, parsers: 20, count: 10_000_000, text: 4096 } as const;

/** Explicit model dimensions (the names of ModelShape). */
export interface ModelDims {
  layers: number;
  hidden: number;
  heads: number;
  queryGroups?: number;
  ffn?: number;
  vocab?: number;
  experts?: number;
  topK?: number;
  swiglu?: boolean;
}

/** Hardware profiles named by the Slurm partitions and node features (`--constraint`) of a cluster, as the user maps them. */
export interface SlurmHardware {
  partitions?: Record<string, string>;
  constraints?: Record<string, string>;
}

/** `b` over `a`, field by field (maps merged key by key). */
export function mergeSettings(a: EngineSettings, b: EngineSettings | undefined): EngineSettings {
  if (!b) return a;
  return {
    hardware: b.hardware ?? a.hardware,
    gpusPerNode: b.gpusPerNode ?? a.gpusPerNode,
    nvlinkDomain: b.nvlinkDomain ?? a.nvlinkDomain,
    rules: { ...a.rules, ...b.rules },
    targetVersions: { ...a.targetVersions, ...b.targetVersions },
    associations: { ...a.associations, ...b.associations },
    model: b.model ?? a.model,
    seqLength: b.seqLength ?? a.seqLength,
    microBatch: b.microBatch ?? a.microBatch,
    worldSize: b.worldSize ?? a.worldSize,
    nodes: b.nodes ?? a.nodes,
    megatronCheckout: b.megatronCheckout ?? a.megatronCheckout,
    repositoryFlags: b.repositoryFlags ?? a.repositoryFlags,
    pins: b.pins ?? a.pins,
    jobHardware: b.jobHardware ?? a.jobHardware,
    maxFileSize: b.maxFileSize ?? a.maxFileSize,
    slurm: a.slurm || b.slurm ? { partitions: { ...a.slurm?.partitions, ...b.slurm?.partitions }, constraints: { ...a.slurm?.constraints, ...b.slurm?.constraints } } : undefined,
  };
}

export function isFormatId(v: unknown): v is FormatId {
  return typeof v === 'string' && (FORMAT_IDS as readonly string[]).includes(v);
}

export function isRuleLevel(v: unknown): v is RuleLevel {
  return v === 'off' || v === 'error' || v === 'warning' || v === 'information' || v === 'hint';
}

/**
 * The largest value each number setting may take. Settings come from files the user did not write
 * (a cloned repository's `.shardwise.yaml`, in-file directives), so no estimate may run on a number
 * that would make it loop, allocate or overflow; these bounds are far above any real cluster or model.
 */
export const SETTING_LIMITS = {
  gpusPerNode: 1024,
  nvlinkDomain: 1 << 16,
  seqLength: 1 << 24,
  microBatch: 1 << 16,
  worldSize: 1 << 24,
  nodes: 1 << 20,
  maxFileSize: 64 * 1024 * 1024,
} as const;

export const MODEL_LIMITS: Record<keyof Omit<ModelDims, 'swiglu'>, number> = {
  layers: 10_000,
  hidden: 1 << 20,
  heads: 1 << 16,
  queryGroups: 1 << 16,
  ffn: 1 << 22,
  vocab: 1 << 24,
  experts: 1 << 16,
  topK: 1 << 10,
};

/** At most this many associations, each at most this long, each expanding to at most this many patterns. */
export const ASSOCIATION_LIMITS = { count: 200, length: 512, braces: 64, stars: 3 } as const;

/** A positive integer no larger than `max`, or undefined. */
export function boundedInt(v: unknown, max: number): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= max ? n : undefined;
}

/** Why an association pattern is refused, if it is. */
export function associationProblem(glob: string): string | undefined {
  if (glob.length > ASSOCIATION_LIMITS.length) return `the pattern is longer than ${ASSOCIATION_LIMITS.length} characters`;
  // A numeric range `{1..100000}` alone would expand to that many patterns.
  for (const m of glob.matchAll(/\{(-?\d+)\.\.(-?\d+)(?:\.\.-?\d+)?\}/g)) {
    if (Math.abs(Number(m[2]) - Number(m[1])) >= ASSOCIATION_LIMITS.braces) return `the range {${m[1]}..${m[2]}} expands to more than ${ASSOCIATION_LIMITS.braces} patterns`;
  }
  let product = 1;
  for (const m of glob.matchAll(/\{([^{}]*)\}/g)) product *= m[1].split(',').length;
  if (product > ASSOCIATION_LIMITS.braces) return `its braces expand to more than ${ASSOCIATION_LIMITS.braces} patterns`;
  // The matcher works by backtracking: its time grows with the name's length to the power of the
  // wildcards of one segment, and nested extended globs make it exponential. Neither is glob syntax
  // the editor's own file associations know.
  if (/[@!?*+]\(/.test(glob)) return 'extended glob patterns (`*(…)`, `+(…)`, `@(…)`, `!(…)`, `?(…)`) are not supported';
  for (const segment of glob.split('/')) {
    if (segment === '**') continue;
    const stars = (segment.match(/\*+/g) ?? []).length;
    if (stars > ASSOCIATION_LIMITS.stars) return `a path segment has ${stars} wildcards \`*\`, more than ${ASSOCIATION_LIMITS.stars}`;
  }
  return undefined;
}

/**
 * Settings with every value the engine cannot safely use dropped: numbers outside SETTING_LIMITS or
 * MODEL_LIMITS, values of the wrong type, associations that are too many, too long or expand too far.
 * The hosts report what they drop where it was written; this is the engine's own guard.
 */
export function boundedSettings(s: EngineSettings): EngineSettings {
  const out: EngineSettings = {};
  if (typeof s.hardware === 'string' && s.hardware.length <= 64) out.hardware = s.hardware;
  for (const key of Object.keys(SETTING_LIMITS) as (keyof typeof SETTING_LIMITS)[]) {
    const n = boundedInt(s[key], SETTING_LIMITS[key]);
    if (n !== undefined) out[key] = n;
  }
  if (s.rules && typeof s.rules === 'object') out.rules = s.rules;
  if (s.targetVersions && typeof s.targetVersions === 'object') out.targetVersions = s.targetVersions;
  if (s.associations && typeof s.associations === 'object') {
    out.associations = {};
    for (const [glob, id] of Object.entries(s.associations).slice(0, ASSOCIATION_LIMITS.count)) if (isFormatId(id) && !associationProblem(glob)) out.associations[glob] = id;
  }
  if (typeof s.model === 'string' && s.model.length <= 128) out.model = s.model;
  else if (s.model && typeof s.model === 'object') {
    const dims = boundedModel(s.model);
    if (dims) out.model = dims;
  }
  if (s.megatronCheckout && typeof s.megatronCheckout === 'object' && Array.isArray(s.megatronCheckout.flags)) out.megatronCheckout = s.megatronCheckout;
  const repository = boundedRepositoryFlags(s.repositoryFlags);
  if (repository) out.repositoryFlags = repository;
  if (s.pins && typeof s.pins === 'object') {
    const pins: Partial<Record<Tool, Pin>> = {};
    for (const t of TOOLS) {
      const p = s.pins[t];
      if (p && typeof p.spec === 'string' && p.spec.length <= 256 && typeof p.package === 'string' && typeof p.file === 'string' && p.file.length <= 1024) pins[t] = p;
    }
    if (Object.keys(pins).length) out.pins = pins;
  }
  const job = s.jobHardware;
  if (job && typeof job.id === 'string' && typeof job.note === 'string' && job.note.length <= 1024) out.jobHardware = { id: job.id, note: job.note, assumed: job.assumed === true || undefined };
  if (s.slurm && typeof s.slurm === 'object') {
    const names = (m: unknown): Record<string, string> | undefined => {
      if (!m || typeof m !== 'object') return undefined;
      const kept = Object.entries(m as Record<string, unknown>).filter(([k, v]) => typeof v === 'string' && k.length <= 256 && v.length <= 64).slice(0, 1000);
      return kept.length ? Object.fromEntries(kept) as Record<string, string> : undefined;
    };
    const partitions = names(s.slurm.partitions);
    const constraints = names(s.slurm.constraints);
    if (partitions || constraints) out.slurm = { partitions, constraints };
  }
  return out;
}

/** The RepositoryFlags objects already found well-formed (the same object is passed with every analysis). */
const wellFormed = new WeakSet<object>();

/**
 * A RepositoryFlags setting as it is, when every part is well-formed and within
 * REPOSITORY_FLAG_LIMITS (flags spelled as argparse flags, counts non-negative integers); else
 * undefined, and the engine judges flags as if no repository had been searched.
 */
export function boundedRepositoryFlags(r: unknown): RepositoryFlags | undefined {
  if (!r || typeof r !== 'object') return undefined;
  if (wellFormed.has(r)) return r as RepositoryFlags;
  const x = r as Partial<Record<keyof RepositoryFlags, unknown>>;
  const L = REPOSITORY_FLAG_LIMITS;
  const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= L.count;
  const text = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= L.text);
  if (!Array.isArray(x.flags) || x.flags.length > L.flags) return undefined;
  if (!x.flags.every((f) => typeof f === 'string' && f.length <= L.flagLength && /^-{1,2}[A-Za-z0-9][\w.-]*\*?$/.test(f))) return undefined;
  if (!count(x.files) || !count(x.withParsers) || typeof x.complete !== 'boolean' || !text(x.incomplete) || !text(x.root)) return undefined;
  if (x.parsers !== undefined && !(Array.isArray(x.parsers) && x.parsers.length <= L.parsers && x.parsers.every((p) => typeof p === 'string' && p.length <= L.text))) return undefined;
  if (x.lenient !== undefined && !(typeof x.lenient === 'string' && x.lenient.length <= L.text)) return undefined;
  if (x.configReads !== undefined && !(Array.isArray(x.configReads) && x.configReads.length <= L.flags && x.configReads.every((k) => typeof k === 'string' && k.length <= L.flagLength && /^[A-Za-z_]\w*$/.test(k)))) return undefined;
  if (x.deepspeedReads !== undefined && !(Array.isArray(x.deepspeedReads) && x.deepspeedReads.length <= L.flags && x.deepspeedReads.every((r) => !!r && typeof r === 'object' && typeof r.key === 'string' && r.key.length <= L.flagLength && /^[A-Za-z_]\w*$/.test(r.key) && typeof r.file === 'string' && r.file.length <= L.text))) return undefined;
  if (x.argsSet !== undefined && !(Array.isArray(x.argsSet) && x.argsSet.length <= L.flags && x.argsSet.every((k) => typeof k === 'string' && k.length <= L.flagLength && /^[a-z_][a-z0-9_]*$/.test(k)))) return undefined;
  if (x.configKeys !== undefined && !(Array.isArray(x.configKeys) && x.configKeys.length <= L.flags && x.configKeys.every((k) => typeof k === 'string' && k.length <= L.flagLength && /^(model|trainer)(\.[A-Za-z_]\w*)+$/.test(k)))) return undefined;
  wellFormed.add(r);
  return r as RepositoryFlags;
}

/** Model dimensions within MODEL_LIMITS (the required three present), or undefined. */
export function boundedModel(m: ModelDims): ModelDims | undefined {
  const out: Partial<ModelDims> = {};
  for (const key of Object.keys(MODEL_LIMITS) as (keyof typeof MODEL_LIMITS)[]) {
    if (m[key] === undefined) continue;
    const n = boundedInt(m[key], MODEL_LIMITS[key]);
    if (n === undefined) return undefined;
    out[key] = n;
  }
  if (m.swiglu === true) out.swiglu = true;
  return out.layers && out.hidden && out.heads ? (out as ModelDims) : undefined;
}
