/**
 * A recipe as the scripts that launch it run it: the keys their command lines override (unknown
 * here, as the file's values do not run), the processes they start, and the Accelerate config an
 * `accelerate launch --config_file acc.yaml train.py recipe.yaml` pairs it with.
 */
import type { Field } from '../../plan/plan';
import type { EngineSettings } from '../../settings';
import type { Path, Span } from '../../types';
import type { ModelInput, RecipeLaunchOf } from '../format';
import type { LaunchPrecision, TrainerModel, TrainerValue } from './model';
import type { TrainerField } from './releases';
import { accelerateLauncher, launchPrecision, pluginJson, type AccelerateConfigRef } from './precision';
import { commandWorld } from './script';

export interface Launched {
  /**
   * The value as the launches leave it: the command line's, when every launch sets the key to the
   * same value `llamafactory-cli` reads (`field` says how it is typed); unknown when a launch may set it
   * otherwise.
   */
  arg(v: TrainerValue, field?: TrainerField): TrainerValue;
  overridden(key: string): string | undefined;
  world?: Field<number>;
  accelerate?: TrainerModel['accelerate'];
  /** The script that launches the recipe through Accelerate (for a DeepSpeed JSON its config names). */
  via?: { name: string; span: Span };
  /** The DeepSpeed JSON the Accelerate config of every launch names, which the Trainer uses when the recipe names none. */
  deepspeed?: (at: Path) => TrainerModel['deepspeed'];
  precision?: LaunchPrecision;
}

const fileName = (p: string): string => p.split(/[\\/]/).pop() ?? p;

/** The processes one launch starts, or why that is not known. */
function launchWorld(l: RecipeLaunchOf, input: ModelInput, settings: EngineSettings): Field<number> | string {
  const name = fileName(l.path);
  if (l.launch.by === 'llamafactory-cli') {
    const w = l.launch.world;
    return w ? { value: w.value, from: w.from.kind === 'assumed' ? { kind: 'assumed', note: `${name}: ${w.from.note}` } : w.from } : `${name}: ${l.launch.worldUnknown}`;
  }
  const w = commandWorld(l.doc, settings);
  if (w) return w;
  const a = l.doc.accelerateConfig();
  if (!a || a.launcher.args.has('--num_processes') || a.launcher.args.has('--num-processes')) return `${name} does not say how many processes it starts`;
  const n = input.link(a.ref, 'accelerate')?.analysis?.model?.numProcesses;
  return n !== undefined && Number.isInteger(n) && n > 0 ? { value: n, from: { kind: 'derived', formula: `world = \`num_processes: ${n}\` of ${a.ref}, which ${name} launches this recipe with` } } : `${name} does not say how many processes it starts`;
}

export function launched(input: ModelInput, settings: EngineSettings): Launched {
  const ls = input.recipeLaunches?.() ?? [];
  const over = new Map<string, string>();
  let open: string | undefined;
  for (const l of ls) {
    for (const k of l.launch.overrides.keys()) if (!over.has(k)) over.set(k, `${fileName(l.path)} sets \`${k}\` on the command line`);
    if (l.launch.open && !open) open = `${fileName(l.path)} launches this recipe, and ${l.launch.open}`;
  }
  const overridden = (key: string): string | undefined => over.get(key) ?? open;
  const arg = (v: TrainerValue, field?: TrainerField): TrainerValue => {
    const why = overridden(v.spelled);
    if (!why) return v;
    const set = !open && field ? commandValue(ls, v, field) : undefined;
    return set ?? { value: undefined, from: { kind: 'unknown', note: why }, spelled: v.spelled };
  };
  if (!ls.length) return { arg, overridden };
  const precision = samePrecision(ls, input);
  // Every launch must start the same number of processes for the recipe's world to be known.
  const worlds = ls.map((l) => launchWorld(l, input, settings));
  const first = worlds[0];
  const world = typeof first !== 'string' && worlds.every((w) => typeof w !== 'string' && w.value === first.value) ? first : undefined;
  // The Accelerate config the launches pair the recipe with, when they all name one.
  const configs = ls.map((l) => (l.launch.by === 'script' ? l.doc.accelerateConfig() : undefined));
  const a = configs[0];
  if (!a || configs.some((c) => c?.ref !== a.ref)) return { arg, overridden, world, precision };
  const linked = input.link(a.ref, 'accelerate');
  const model = linked?.analysis?.model;
  const doc = linked?.analysis?.doc;
  const via = { name: fileName(ls[0].path), span: a.span };
  const accelerate = model && doc && linked?.path ? { ref: a.ref, path: linked.path, doc, model, script: via.name, options: [...a.launcher.args.keys()], ...(a.open ? { open: a.open } : {}) } : undefined;
  // Every launch must leave the JSON to the config (no launch of another config, none that may pass `--deepspeed_config_file`).
  const plugin = accelerate && !configs.some((c) => c?.open) ? accelerate : undefined;
  const deepspeed = plugin ? (at: Path) => pluginJson(a.launcher, plugin, input.link, at, `${plugin.ref}, the Accelerate config ${via.name} launches this recipe with,`) : undefined;
  return { arg, overridden, world, accelerate, via, deepspeed, precision };
}

/**
 * `llamafactory-cli train recipe.yaml key=value`: OmegaConf.from_cli reads the value as YAML and
 * merges it over the file's (src/llamafactory/hparams/parser.py@ff6d4d1:117-120), so the Trainer
 * gets the command's value. Known only when every launch sets the key, each to the same plain value
 * (a number, true/false, or a bare word for a text field); the finding then names the first of them.
 */
function commandValue(ls: readonly RecipeLaunchOf[], v: TrainerValue, field: TrainerField): TrainerValue | undefined {
  let text: string | undefined;
  for (const l of ls) {
    const t = l.launch.by === 'llamafactory-cli' ? l.launch.overrides.get(v.spelled) : undefined;
    if (t === undefined || (text !== undefined && t !== text)) return undefined;
    text = t;
  }
  const first = ls[0];
  const span = first.launch.overrideSpans?.get(v.spelled);
  if (text === undefined || !span) return undefined;
  const t = text.trim();
  let value: number | boolean | string | undefined;
  if (field.kind === 'bool') value = /^(true|false)$/i.test(t) ? t.toLowerCase() === 'true' : undefined;
  else if (field.kind === 'str') value = /^[A-Za-z][\w.-]*$/.test(t) && !/^(true|false|yes|no|on|off|null)$/i.test(t) ? t : undefined;
  else value = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) ? Number(t) : undefined;
  if (value === undefined) return undefined;
  const by = `${fileName(first.path)} sets \`${v.spelled}=${t}\` on the command line`;
  return { value, from: { kind: 'derived', formula: by }, at: v.at, spelled: v.spelled, by, over: { path: first.path, doc: first.doc, span } };
}

/** The precision every launch hands the recipe through `accelerate launch`, when they all hand the same one. */
function samePrecision(ls: readonly RecipeLaunchOf[], input: ModelInput): LaunchPrecision | undefined {
  let first: LaunchPrecision | undefined;
  for (const l of ls) {
    const launcher = l.launch.by === 'script' ? accelerateLauncher(l.doc) : undefined;
    if (!launcher) return undefined;
    const a = l.doc.accelerateConfig();
    const linked = a ? input.link(a.ref, 'accelerate') : undefined;
    const model = linked?.analysis?.model;
    const ref: AccelerateConfigRef | undefined = a && model && linked?.path && linked.analysis ? { ref: a.ref, path: linked.path, doc: linked.analysis.doc, model } : undefined;
    // A `--config_file` that is named but not read leaves the precision unknown unless the command passes it.
    const p = a && !ref ? launchPrecision({ ...launcher, open: launcher.open ?? `${a.ref} is not read` }, undefined, fileName(l.path), { path: l.path, doc: l.doc }) : launchPrecision(launcher, ref, fileName(l.path), { path: l.path, doc: l.doc });
    if (!p || (first && (first.value !== p.value || first.deepspeed !== p.deepspeed || first.jsonFile !== p.jsonFile))) return undefined;
    first ??= p;
  }
  return first;
}
