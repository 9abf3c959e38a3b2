/**
 * Megatron Bridge override YAML: `ConfigContainer` sections (`model`, `train`, `optimizer`, `ddp`,
 * `comm_overlap`, `mixed_precision`, `dist`, ...) merged onto a recipe, and the flat
 * `section.field: value` spelling of the same overrides. Bridge skips an override key it does not
 * know with only a log line; Shardwise reports the ones that look like a misspelled known key.
 */
import type { SchemaNav } from '../../schema/navigate';
import { closest } from '../../suggest';
import type { SourceDoc } from '../../syntax/sourcedoc';
import type { MapNode } from '../../syntax/tree';
import type { Path } from '../../types';
import { derived, written, type Field, type Plan } from '../../plan/plan';
import type { Precision } from '../../plan/memory';
import { mapKeys, weigh, type Evidence, type EvidenceRules } from '../evidence';
import type { FormatSupport, ModelInput } from '../format';
import { megatronPlan, skipsTraining, type MegatronArgs } from './args';
import { keepSharedIssue, megatronWritePath, type BridgeField } from './model';
import { argsFromView, envFromMap } from './common';
import { argsInstance, interpolated, INTERPOLATED, type ArgSite, type UnknownArg } from './instance';
import { BRIDGE_SCHEMA, MEGATRON_SCHEMA, megatronIndexes, MEGATRON_VALIDATE } from './schema';
import { worldFromSettings } from './yaml';

export const BRIDGE_SECTIONS = ['model', 'train', 'optimizer', 'ddp', 'comm_overlap', 'mixed_precision', 'dist', 'dataset', 'checkpoint', 'scheduler', 'logger', 'tokenizer', 'rng', 'validation', 'peft', 'env_vars', 'profiling', 'rerun_state_machine', 'ft', 'straggler', 'nvrx_straggler', 'inprocess_restart', 'tensor_inspect', 'optimizer_config_override_provider'];
/** Sections whose class depends on the recipe (GPT vs fine-tuning datasets): their fields are not checked. */
const OPEN_SECTIONS = new Set(['dataset']);

export interface BridgeModel {
  args: MegatronArgs;
  /** Every field the file writes, by dotted path (see `MegatronModel.bridgeFields`). */
  bridgeFields: ReadonlyMap<string, BridgeField>;
  /** The `comm_overlap` section, when the file writes one: its fields' values and where each is written. */
  commOverlap?: Map<string, { value: unknown; path: Path }>;
}

/** The fields of the `comm_overlap` section the file writes (nested or dotted), or undefined when it writes none. */
function commOverlapOf(doc: SourceDoc): Map<string, { value: unknown; path: Path }> | undefined {
  const root = doc.root;
  if (root?.kind !== 'map' || !root.entries.some((e) => !e.merged && (e.key === 'comm_overlap' || e.key.startsWith('comm_overlap.')))) return undefined;
  const out = new Map<string, { value: unknown; path: Path }>();
  for (const f of fields(doc)) {
    const [section, key, more] = f.dotted.split('.');
    if (section === 'comm_overlap' && key && more === undefined) out.set(key, { value: doc.value(f.path), path: f.path });
  }
  return out;
}

/**
 * Megatron Bridge's `CommOverlapConfig.setup` (training/comm_overlap.py), run whenever the config has
 * a `comm_overlap` section: with the distributed optimizer it sets the DDP overlaps itself, to the
 * section's own value where it gives one, else on when DP > 1, whatever `ddp.*` says.
 */
function commOverlapDp(model: BridgeModel, plan: Plan): void {
  const co = model.commOverlap;
  const dist = plan.distributedOptimizer;
  if (!co || dist?.value !== true || dist.from.kind !== 'written') return;
  const pairs: [string, 'gradReduce' | 'paramGather'][] = [['overlap_grad_reduce', 'gradReduce'], ['overlap_param_gather', 'paramGather']];
  for (const [key, field] of pairs) {
    const own = co.get(key);
    if (typeof own?.value === 'boolean') plan.overlap[field] = written(own.value, own.path);
    else if (plan.dp && plan.dp.from.kind !== 'unknown') plan.overlap[field] = derived(plan.dp.value > 1, `Megatron Bridge's comm_overlap setup (the file has a \`comm_overlap\` section and the distributed optimizer): on when DP > 1, whatever \`ddp.${key}\` says`, [plan.dp]);
  }
}

/** Every field the file writes, by dotted path, an interpolation marked unknown (`MegatronModel.bridgeFields`). */
function bridgeFieldsOf(doc: SourceDoc): Map<string, BridgeField> {
  const out = new Map<string, BridgeField>();
  for (const f of fields(doc)) {
    const unknown = f.node.kind === 'scalar' && f.node.unknown ? f.node.unknown : interpolated(f.node) ? INTERPOLATED : undefined;
    out.set(f.dotted, unknown ? { value: undefined, path: f.path, unknown } : { value: doc.value(f.path), path: f.path });
  }
  return out;
}

/** `(section, field, path, node)` for nested and flat (`model.tensor_model_parallel_size:`) spellings. */
function fields(doc: SourceDoc): { dotted: string; path: Path; keySpan: { start: number; end: number }; node: MapNode['entries'][number]['value'] }[] {
  const out: ReturnType<typeof fields> = [];
  const root = doc.root;
  if (root?.kind !== 'map') return out;
  for (const e of root.entries) {
    if (e.merged) continue;
    if (e.key.includes('.')) {
      out.push({ dotted: e.key, path: [e.key], keySpan: e.keySpan, node: e.value });
      continue;
    }
    if (e.value.kind !== 'map' || e.key === 'env_vars') continue;
    for (const f of e.value.entries) {
      if (f.merged) continue;
      if (f.value.kind === 'map' && e.key !== 'model') {
        for (const g of f.value.entries) out.push({ dotted: `${e.key}.${f.key}.${g.key}`, path: [e.key, f.key, g.key], keySpan: g.keySpan, node: g.value });
      }
      out.push({ dotted: `${e.key}.${f.key}`, path: [e.key, f.key], keySpan: f.keySpan, node: f.value });
    }
  }
  return out;
}

function sitesOf(doc: SourceDoc): { sites: ArgSite[]; unknown: UnknownArg[] } {
  const idx = megatronIndexes();
  const sites: ArgSite[] = [];
  const unknown: UnknownArg[] = [];
  for (const f of fields(doc)) {
    const dest = idx.bridge.get(f.dotted);
    if (dest) {
      sites.push({ dest, negate: false, path: f.path, keySpan: f.keySpan, node: f.node });
      continue;
    }
    const [section, ...rest] = f.dotted.split('.');
    if (OPEN_SECTIONS.has(section) || rest.length !== 1) continue;
    const known = idx.bridgeSections.get(section);
    if (!known || known.has(rest[0])) continue;
    // Model fields are TransformerConfig fields: any Megatron argument name is a field there.
    if (section === 'model' && MEGATRON_SCHEMA.properties?.[rest[0]]) {
      sites.push({ dest: rest[0], negate: false, path: f.path, keySpan: f.keySpan, node: f.node });
      continue;
    }
    const near = closest(rest[0], known, 3).filter((k) => k !== rest[0]);
    if (near.length) unknown.push({ path: f.path, key: rest[0], candidates: near, effect: 'ignored', where: `in \`${section}\` (Megatron Bridge skips override keys it does not know, with only a log line)` });
  }
  return { sites, unknown };
}

function precisionOf(doc: SourceDoc): Field<Precision> | undefined {
  const mp = doc.value(['mixed_precision']);
  if (typeof mp !== 'string') return undefined;
  const p: Precision = /fp8|mxfp8|nvfp4/.test(mp) ? 'fp8' : mp.startsWith('fp16') ? 'fp16' : mp.startsWith('bf16') ? 'bf16' : 'fp32';
  return written(p, ['mixed_precision']);
}

/** Hydra's own keys, which an override file may carry. */
const HYDRA_KEYS = ['defaults', '_target_'];

const RULES: EvidenceRules = {
  what: 'a Megatron Bridge override file',
  owner: 'Megatron Bridge',
  where: 'top-level sections',
  noun: 'section',
  // The flat spelling of a model field (`model.tensor_model_parallel_size: 2`) is Bridge's own.
  distinctive: (k) => k.startsWith('model.') && k.length > 6,
  telling: (k) => BRIDGE_SECTIONS.includes(k.split('.')[0]),
  known: (k) => BRIDGE_SECTIONS.includes(k.split('.')[0]) || HYDRA_KEYS.includes(k),
  several: 2,
  // Every top-level key must be a ConfigContainer section: Bridge merges the file onto a recipe's config.
  balance: 'all',
};

/**
 * A Megatron Bridge override file by weight of evidence (formats/evidence.ts): two ConfigContainer
 * sections (`model`, `train`, …; the dotted spelling `model.x: v` counts), every top-level key one
 * of them (or Hydra's `defaults` / `_target_`), and no NeMo `trainer` or functional-test `MODEL_ARGS`.
 */
export function bridgeEvidence(doc: SourceDoc): Evidence {
  const keys = mapKeys(doc.root);
  // Sections are counted once, whichever spelling writes them.
  const seen = new Set<string>();
  const weighed = keys.filter(({ key }) => {
    const section = key.split('.')[0];
    if (key.includes('.') && RULES.distinctive(key, undefined)) return true;
    if (seen.has(section)) return false;
    seen.add(section);
    return true;
  });
  const contradictions = keys.some((k) => k.key === 'trainer') ? ['`trainer` is a NeMo section'] : keys.some((k) => k.key === 'MODEL_ARGS') ? ['`MODEL_ARGS` is a functional test\'s'] : [];
  return weigh({ keys: weighed, contradictions }, RULES);
}

export const megatronBridgeFormat: FormatSupport<BridgeModel> = {
  id: 'megatron-bridge',
  title: 'Megatron Bridge overrides',
  toolName: 'Megatron Bridge',
  syntaxes: ['yaml'],
  tool: 'megatron-core',
  schema: { json: BRIDGE_SCHEMA, validate: MEGATRON_VALIDATE },
  detect: bridgeEvidence,
  keepIssue: keepSharedIssue,
  // training/utils/omegaconf_utils.py@067f987:470-473 (same from v0.2.0): an override key the config
  // object lacks is logged and skipped.
  unknownKeys: 'skipped',
  instance(doc: SourceDoc, nav: SchemaNav) {
    const { sites, unknown } = sitesOf(doc);
    return argsInstance(sites, unknown, nav);
  },
  schemaPath(_doc: SourceDoc, path: Path): Path | undefined {
    const dotted = path.join('.');
    const dest = megatronIndexes().bridge.get(dotted) ?? (path[0] === 'model' && path.length === 2 && MEGATRON_SCHEMA.properties?.[String(path[1])] ? String(path[1]) : undefined);
    return dest ? [dest] : undefined;
  },
  keysAt(_doc: SourceDoc, path: Path) {
    if (path.length !== 1) return undefined;
    const section = String(path[0]);
    const idx = megatronIndexes();
    return [...(idx.bridgeSections.get(section) ?? [])].map((k) => ({ key: k, schemaPath: [idx.bridge.get(`${section}.${k}`)!] }));
  },
  model({ doc, view, settings, path }: ModelInput): BridgeModel {
    const world = worldFromSettings(settings, path);
    const idx = megatronIndexes();
    const args = argsFromView(view, {
      runtime: 'Megatron Bridge',
      pathFor: (dest) => {
        for (const [p, d] of idx.bridge) if (d === dest) return p.split('.');
        return ['model', dest];
      },
      world: world?.world,
      nodes: world?.nodes,
      env: envFromMap(doc, 'env_vars'),
      etpDefault: 'one-with-ep',
    });
    args.configFields = true;
    args.defaultsUnknown = 'not in this override file: the recipe it is merged onto decides';
    // What the recipe's provider and Megatron Core's config classes give a key nobody writes (hover; `x-default-in`).
    args.defaultsIn = 'bridge';
    args.defaultsRelease = settings.targetVersions?.['megatron-core'];
    // MixedPrecisionConfig.setup copies each of its fields over the same-named model, optimizer and
    // DDP field whenever a mixed-precision config applies, this file's or the recipe's
    // (training/mixed_precision.py@v0.6.0:126-155, config.py@v0.6.0:1872): such a field written
    // elsewhere is not what runs.
    const copied = new Set([...idx.bridge].filter(([p]) => p.startsWith('mixed_precision.')).map(([, d]) => d));
    const own = args.get.bind(args);
    const from = doc.node(['mixed_precision']) ? "this file's `mixed_precision`" : "the recipe's mixed-precision config, if it has one";
    args.get = (dest) => {
      const a = own(dest);
      return a && !a.unknown && copied.has(dest) && a.path[0] !== 'mixed_precision' ? { ...a, unknown: `Megatron Bridge copies \`mixed_precision.${dest}\` over it (${from})` } : a;
    };
    args.precision = precisionOf(doc);
    args.notTraining = skipsTraining(args);
    return { args, bridgeFields: bridgeFieldsOf(doc), commOverlap: commOverlapOf(doc) };
  },
  writePath: megatronWritePath,
  plan(model, settings) {
    const plan = megatronPlan(model.args, settings);
    commOverlapDp(model, plan);
    // Bridge's comm-overlap setup turns TP overlap off (with a warning) when sequence parallelism is off.
    const tpComm = plan.overlap.tpComm;
    if (tpComm?.value && !(plan.sp.value && plan.tp.value > 1) && plan.sp.from.kind !== 'unknown') {
      (plan.effective ??= []).push({ field: tpComm, value: false, why: 'TP communication overlap does nothing without sequence parallelism (or at TP 1): Megatron Bridge turns it off when the run has a `comm_overlap` config, and Transformer Engine otherwise builds no overlap.' });
    }
    return plan;
  },
};
