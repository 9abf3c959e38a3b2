/** What the engine can be told from outside the file: editor settings, `.shardwise.yaml`, CLI flags. */
import type { Severity } from './types';

export const FORMAT_IDS = ['accelerate', 'deepspeed', 'megatron-args', 'megatron-yaml', 'megatron-bridge', 'nemo'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export const TOOLS = ['accelerate', 'deepspeed', 'megatron-core'] as const;
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
}

export interface MegatronCheckout {
  /** The parser file, relative to the checkout's root (for messages). */
  parser: string;
  /** The flag spellings the parser defines. */
  flags: readonly string[];
}

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
  };
}

export function isFormatId(v: unknown): v is FormatId {
  return typeof v === 'string' && (FORMAT_IDS as readonly string[]).includes(v);
}

export function isRuleLevel(v: unknown): v is RuleLevel {
  return v === 'off' || v === 'error' || v === 'warning' || v === 'information' || v === 'hint';
}
